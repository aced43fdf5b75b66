import type { SampleLead } from './sample-data';

/** A CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function leadsCsv(leads: readonly SampleLead[]): string {
  const header = ['Name', 'Email', 'Phone', 'Interested In', 'Status', 'Received'];
  const rows = leads.map((lead) => [lead.name, lead.email, lead.phone, lead.interest, lead.status, lead.time]);
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Export Leads: the listed leads as a CSV file the browser saves. */
export function downloadLeadsCsv(leads: readonly SampleLead[], fileName: string): void {
  const url = URL.createObjectURL(new Blob([leadsCsv(leads)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
