import { informationPage, ShopDetails } from '@/components/legal/legal-page';
import { paymentPrivacyParts } from '@/components/legal/payment-terms';
import { configuredPaymentMode } from '@/server/orders/payment';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** What we keep about shoppers, for how long, and why; who takes the payment as this shop takes it. Texts: `Legal.privacy` in messages/<locale>.json. */
const privacy = informationPage(
  'privacy',
  () => ({ controller: <ShopDetails show={['legalName', 'address', 'email']} /> }),
  () => paymentPrivacyParts[configuredPaymentMode()],
);

export const generateMetadata = privacy.generateMetadata;
export default privacy.Page;
