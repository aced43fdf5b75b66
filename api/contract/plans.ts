/**
 * The pricing plans (spec point 9): the ids a pricing card carries to `/get-started?plan=<planId>`,
 * the ones the server accepts with an application, and their names and prices as the thank-you,
 * `/payment` and the confirmation mail name them. The pricing cards' copy lives in web/features/marketing/content.ts.
 * No zod here: the home page's pricing cards import it.
 */
export const pricingPlans = [
  { planId: 'starter', name: 'Starter', price: 99 },
  { planId: 'professional', name: 'Professional', price: 199 },
  { planId: 'enterprise', name: 'Enterprise', price: 299 },
] as const;

export type PricingPlan = (typeof pricingPlans)[number];
export type PricingPlanId = PricingPlan['planId'];
export const pricingPlanIds = pricingPlans.map((plan) => plan.planId) as [PricingPlanId, ...PricingPlanId[]];

/** The query parameter of `/get-started?plan=` and `/payment?plan=`. */
export const planQueryParam = 'plan';

export const unknownPlanMessage = `Please choose one of our plans: ${pricingPlanIds.join(', ')}`;

export function isPricingPlanId(value: string | null | undefined): value is PricingPlanId {
  return (pricingPlanIds as readonly string[]).includes(value ?? '');
}

export function pricingPlanOf(planId: string | null | undefined): PricingPlan | undefined {
  return pricingPlans.find((plan) => plan.planId === planId);
}

/** `Professional ($199/month)`. */
export function planLabel(plan: PricingPlan): string {
  return `${plan.name} ($${plan.price}/month)`;
}
