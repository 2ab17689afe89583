// The insurance plans offered for one order: each plan with the days
// suggested from the trip (the product's stay, brought into the plan's
// range) and what that costs for every applicant of the order.
import type { Kysely } from 'kysely';
import { ErrorCode } from '../../../common/error-codes.ts';
import { clampDays, insuranceAmount, type InsurancePlanListResult, tripDays } from '../../../common/insurance.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { createOrderRepository } from '../order/order.repository.ts';
import { createInsuranceRepository } from './insurance.repository.ts';

export function createInsuranceService(db: Kysely<Database>) {
  const repo = createInsuranceRepository(db);
  const orders = createOrderRepository(db);

  return {
    async planList(customer: { enterpriseId: number }, userOrderId: number): Promise<InsurancePlanListResult> {
      const order = await orders.findOrder(customer.enterpriseId, userOrderId);
      if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
      const [plans, stay] = await Promise.all([repo.onSale(), repo.stayDays(order.visa_product_id)]);
      const trip = tripDays(stay);
      return {
        start_date: order.departure_date,
        trip_days: trip,
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
            amount: insuranceAmount(plan.price_per_day, days, order.applicant_count),
          };
        }),
      };
    },
  };
}

export type InsuranceService = ReturnType<typeof createInsuranceService>;
