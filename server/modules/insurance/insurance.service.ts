// The insurance plans offered for one order: each plan with the days
// suggested from the trip (the customer's return date or trip length; a week
// until they say), brought into the plan's range, and what that costs per
// person and for every applicant of the order.
import type { Kysely } from 'kysely';
import type { InsurancePlanListResult } from '../../../common/contracts/insurance.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { assumedTripDays, clampDays, insuranceAmount, returnDateProblem, TRIP_DAYS_MAX, tripDaysUntil, tripReturnDate } from '../../../common/insurance.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer } from '../../platform/principal.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { createInsuranceRepository, type InsurancePlanRow } from './insurance.repository.ts';

/** What the customer said of their trip: a return date, or a length in days. */
export interface TripAnswer {
  return_date?: string | null;
  trip_days?: number | null;
}

/** The trip's days from the customer's answer (the return date first); null when they gave none. */
function tripFrom(departureDate: string, asked: TripAnswer): number | null {
  if (asked.return_date != null) {
    const problem = returnDateProblem(departureDate, asked.return_date);
    if (problem) throw new AppError(ErrorCode.INSURANCE_DAYS_INVALID, problem);
    return tripDaysUntil(departureDate, asked.return_date);
  }
  if (asked.trip_days != null) {
    const days = asked.trip_days;
    if (!Number.isInteger(days) || days < 1 || days > TRIP_DAYS_MAX) {
      throw new AppError(ErrorCode.INSURANCE_DAYS_INVALID, `行程天数须为 1–${TRIP_DAYS_MAX} 的整数`);
    }
    return days;
  }
  return null;
}

export function createInsuranceService(db: Kysely<Database>, deps: { now: () => number }) {
  const repo = createInsuranceRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);

  return {
    /** A plan that can be bought now (the confirm step's snapshot); undefined when missing or withdrawn. */
    planOnSale(insurancePlanId: number): Promise<InsurancePlanRow | undefined> {
      return repo.findOnSale(insurancePlanId);
    },

    async planList(customer: Customer, userOrderId: number, asked: TripAnswer = {}): Promise<InsurancePlanListResult> {
      // Read like every step reads its order: an unpaid order past its 24 h is expired first.
      const order = await lifecycle.current(customer, userOrderId);
      // The stay the order was placed with (its snapshot), as the passport rule counts it.
      const plans = await repo.onSale();
      const trip = tripFrom(order.departure_date, asked) ?? assumedTripDays(order.stay_days);
      return {
        start_date: order.departure_date,
        return_date: tripReturnDate(order.departure_date, trip),
        trip_days: trip,
        trip_assumed: asked.return_date == null && asked.trip_days == null,
        applicant_count: order.applicant_count,
        plans: plans.map((plan) => {
          const days = clampDays(trip, plan);
          return {
            insurance_plan_id: plan.insurance_plan_id,
            name: plan.name,
            company: plan.company,
            description: plan.description,
            price_per_day: plan.price_per_day,
            min_days: plan.min_days,
            max_days: plan.max_days,
            items: plan.items,
            suggested_days: days,
            per_person_amount: insuranceAmount(plan.price_per_day, days, 1),
            amount: insuranceAmount(plan.price_per_day, days, order.applicant_count),
          };
        }),
      };
    },
  };
}

export type InsuranceService = ReturnType<typeof createInsuranceService>;
