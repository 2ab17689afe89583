// A loader's read of the enterprise's saved travellers for a page that only
// offers them (create-order): an empty list when the read is refused.
import type { AppLoadContext } from 'react-router';
import type { TravellerView } from '../../../common/contracts/traveller';

export async function savedTravellers(context: AppLoadContext): Promise<TravellerView[]> {
  const reads = await context.customerReads();
  if (!reads) return [];
  const answer = await reads.travellers();
  return answer.ok ? answer.body.list : [];
}
