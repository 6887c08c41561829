import { informationPage, ShopDetails } from '@/components/legal/legal-page';
import { paymentTermItems } from '@/components/legal/payment-terms';
import { configuredPaymentMode } from '@/server/orders/payment';

// The same for every visitor and no database read: rendered once per language, then served from
// cache. Re-rendered at most every five minutes, so changed SHOP_* settings show soon after a restart.
export const revalidate = 300;

/** The terms every order is made on, paying as this shop takes payment. Texts: `Legal.terms` in messages/<locale>.json. */
const terms = informationPage(
  'terms',
  () => ({ seller: <ShopDetails show={['legalName', 'address', 'email', 'phone', 'vatId']} /> }),
  () => ({ 'payment.list': paymentTermItems[configuredPaymentMode()] }),
);

export const generateMetadata = terms.generateMetadata;
export default terms.Page;
