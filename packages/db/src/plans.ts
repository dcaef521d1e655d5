/** Plans and credit prices (spec §8). The same rows are seeded into `plans` by the init migration. */
export type PlanId = 'free' | 'hobby' | 'pro' | 'scale' | 'enterprise';

export const PLAN_IDS = ['free', 'hobby', 'pro', 'scale', 'enterprise'] as const satisfies readonly PlanId[];

export const PLANS: Record<PlanId, { name: string; priceUsd: number | null; monthlyCredits: number }> = {
  free: { name: 'Free', priceUsd: 0, monthlyCredits: 500 },
  hobby: { name: 'Hobby', priceUsd: 19, monthlyCredits: 5_000 },
  pro: { name: 'Pro', priceUsd: 79, monthlyCredits: 50_000 },
  scale: { name: 'Scale', priceUsd: 299, monthlyCredits: 250_000 },
  // Custom contract: price and monthly credits are set per account (`credits` on create).
  enterprise: { name: 'Enterprise', priceUsd: null, monthlyCredits: 0 },
};

/** Top-up price: 10 USD buys 1,000 credits on any plan. */
export const CREDITS_PER_USD = 100;

export function isPlanId(v: string): v is PlanId {
  return (PLAN_IDS as readonly string[]).includes(v);
}
