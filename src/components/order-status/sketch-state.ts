import type { OrderView } from '@/shared/order-schema';

/**
 * What the customer's pages say of a custom painting's sketch, from the order's status and its
 * history (decisions.md "The sketch loop never misstates"): an approval is the customer's only
 * when they clicked it; one the studio recorded (their yes by phone, or painting started over a
 * sketch still waiting) is said to be the studio's, and painting without a sketch shown is said so.
 */
export type SketchState = 'notYet' | 'drawing' | 'pending' | 'changes_requested' | 'approved' | 'approvedByStudio' | 'skipped';

export function sketchState(order: Pick<OrderView, 'sketchStatus' | 'photos' | 'events'>): SketchState {
  const shown = order.photos.some((photo) => photo.kind === 'sketch');
  switch (order.sketchStatus) {
    case null:
      return 'notYet';
    case 'pending':
      return shown ? 'pending' : 'drawing';
    case 'changes_requested':
      return 'changes_requested';
    case 'approved': {
      const approval = order.events.findLast((event) => event.sketchStatus === 'approved');
      if (approval?.actor === 'customer') return 'approved';
      return shown || approval ? 'approvedByStudio' : 'skipped';
    }
  }
}
