/**
 * The order form's pieces, shared by the artwork page (reproductions) and the custom painting page.
 * Contract: `SizeFramePicker` ({ size, frame, onChange(size, frame), kind?, subjects?, ratio?,
 * initialPrices? }) shows the sizes and frames of src/shared/canvas.ts as radio
 * groups, each option priced from the server's table. `usePrice({ kind, size, frame, subjects })`
 * returns `{ cents }`, the live total read from `orders.pricing` (GET /v1/pricing) and computed by
 * the server's own `priceOf` (src/shared/prices.ts), so the price shown is the price charged;
 * pass the table read on the server as second argument to have it on first paint.
 * `CustomerFields` ({ value, onChange, errors, onBlur?, idPrefix? }) renders exactly the fields of
 * the server's `Customer` schema; `useCustomerForm()` holds their state and checks them with that
 * same Zod schema on blur and on `validate()` (submit), giving per-field problems that
 * `CustomerFields` shows translated (`OrderForm.errors.*`); `customerFieldId(prefix, field)` names
 * the inputs so a form can focus the first one at fault. `useSubmitOrder()` returns
 * `{ submit(body), isPending }`: `submit` sends the CreateOrder body through `orders.create`
 * (the body as the input, as `jsonBody(CreateOrder)` takes it), and on success stores the e-mail in
 * sessionStorage under `atelier:order-email:<CODE>` (`orderEmailKey`), then goes to `checkoutUrl`
 * (Stripe Checkout) when set, otherwise to the order page `/<locale>/orders/<code>`; on a 400 it
 * resolves `{ ok: false, kind: 'invalid', problems: [{ path, message }] }` with the server's field
 * paths (`customer.email` → `customerFieldOf`), on anything else `{ ok: false, kind: 'failed' }`.
 * Every visible string is in the `OrderForm` namespace. `OrderCheckout` (./checkout, imported from
 * there, not from here: it brings the terms' `Legal` words, which the order pages do not load) ends
 * both forms.
 */
export { countryOptions } from './countries';
export { customerFieldOf, customerFields, customerInput, customerProblems, emptyCustomer } from './customer';
export type { CustomerDraft, CustomerField, CustomerProblems, FieldProblem } from './customer';
export { CustomerFields, customerFieldId, useCustomerForm } from './customer-fields';
export type { PriceTableData } from './price';
export { SizeFramePicker } from './size-frame-picker';
export { FitChoice, fitMatters } from './fit-choice';
export { OrderBar } from './order-bar';
export { ShowcaseConsent } from './showcase-consent';
export { DeliveryEstimate, formatDeliveryWindow } from './delivery-estimate';
export { canvasCm, sidesOf } from './sizes';
export { usePrice, usePriceTable } from './use-price';
export { isRateLimited, orderEmailKey, problemsOf, useSubmitOrder } from './use-submit-order';
export type { OrderBody, ServerFieldProblem, SubmitOutcome } from './use-submit-order';
