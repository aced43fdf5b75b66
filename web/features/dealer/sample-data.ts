/** The dashboard's demonstration data (hard-coded sample figures, no server calls). */

export type VehicleStatus = 'Available' | 'Pending' | 'Sold';
export interface SampleVehicle {
  id: number;
  year: number;
  make: string;
  model: string;
  price: number;
  mileage: number;
  status: VehicleStatus;
}

export const sampleVehicles: readonly SampleVehicle[] = [
  { id: 1, year: 2021, make: 'Toyota', model: 'Camry SE', price: 24_995, mileage: 32_410, status: 'Available' },
  { id: 2, year: 2019, make: 'Ford', model: 'F-150 XLT', price: 31_500, mileage: 58_920, status: 'Pending' },
  { id: 3, year: 2020, make: 'Honda', model: 'CR-V EX', price: 26_750, mileage: 41_305, status: 'Available' },
  { id: 4, year: 2018, make: 'Chevrolet', model: 'Silverado 1500', price: 28_900, mileage: 67_150, status: 'Sold' },
  { id: 5, year: 2022, make: 'Nissan', model: 'Altima SV', price: 22_480, mileage: 18_760, status: 'Available' },
  { id: 6, year: 2017, make: 'Jeep', model: 'Wrangler Sport', price: 27_995, mileage: 72_400, status: 'Available' },
];

export type LeadStatus = 'New' | 'Contacted' | 'Qualified' | 'Proposal Sent' | 'Follow-up';
export interface SampleLead {
  id: number;
  name: string;
  email: string;
  phone: string;
  interest: string;
  status: LeadStatus;
  time: string;
}

export const sampleLeads: readonly SampleLead[] = [
  { id: 1, name: 'Carlos Mendoza', email: 'carlos.mendoza@example.com', phone: '(512) 555-0192', interest: '2021 Toyota Camry SE', status: 'New', time: '5 minutes ago' },
  { id: 2, name: 'Emily Carter', email: 'emily.carter@example.com', phone: '(512) 555-0128', interest: '2020 Honda CR-V EX', status: 'Contacted', time: '1 hour ago' },
  { id: 3, name: 'Marcus Johnson', email: 'mjohnson@example.com', phone: '(737) 555-0164', interest: '2019 Ford F-150 XLT', status: 'Qualified', time: '3 hours ago' },
  { id: 4, name: 'Sarah Kim', email: 'sarah.kim@example.com', phone: '(512) 555-0175', interest: 'Trade-in appraisal', status: 'Proposal Sent', time: 'Yesterday' },
  { id: 5, name: 'David Nguyen', email: 'd.nguyen@example.com', phone: '(737) 555-0139', interest: '2017 Jeep Wrangler Sport', status: 'Follow-up', time: '2 days ago' },
];

export const sampleActivity: readonly { id: number; text: string; time: string }[] = [
  { id: 1, text: 'New lead from AI chat: Carlos Mendoza asked about the 2021 Toyota Camry SE', time: '5 min ago' },
  { id: 2, text: 'Test drive booked for Saturday 10:00 AM: 2020 Honda CR-V EX', time: '1 hr ago' },
  { id: 3, text: 'Price-drop alert sent to 38 shoppers: 2019 Ford F-150 XLT', time: '3 hrs ago' },
  { id: 4, text: '2018 Chevrolet Silverado 1500 marked as sold', time: 'Yesterday' },
];

export const sampleStats = {
  totalInventory: 47,
  activeLeads: 23,
  monthlyRevenue: 184_250,
  websiteVisitors: 3_842,
  aiChatConversations: 156,
  conversionRate: '4.2%',
  responseTime: '< 30 sec',
} as const;

