import { describe, expect, it } from 'vitest';
import { customerFieldOf, customerInput, customerProblems, emptyCustomer, type CustomerDraft } from '@/components/order/customer';
import { canvasCm } from '@/components/order/sizes';
import { priceTable } from '@/server/orders/service';
import { frames, sizes } from '@/shared/canvas';
import { subjectLimits } from '@/shared/orders';
import { priceOf } from '@/shared/prices';

const ada: CustomerDraft = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '',
  address: '12 St James Square',
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
};

describe('the order form price', () => {
  it('from the table orders.pricing sends is the price the server charges, for every size, frame, kind and number of subjects', () => {
    // As the browser receives it: through JSON.
    const table = JSON.parse(JSON.stringify(priceTable())) as ReturnType<typeof priceTable>;
    for (const size of sizes) {
      for (const frame of frames) {
        expect(priceOf({ kind: 'reproduction', size, frame }, table)).toBe(priceOf({ kind: 'reproduction', size, frame }));
        for (let subjects = subjectLimits.min; subjects <= subjectLimits.max; subjects++) {
          expect(priceOf({ kind: 'custom', size, frame, subjects }, table)).toBe(priceOf({ kind: 'custom', size, frame, subjects }));
        }
      }
    }
  });
});

describe('the customer fields', () => {
  it('accept what the server accepts, leaving an empty phone out', () => {
    expect(customerProblems(ada)).toEqual({});
    expect(customerInput(ada)).not.toHaveProperty('phone');
    expect(customerInput({ ...ada, phone: ' +44 20 7946 0000 ' }).phone).toBe('+44 20 7946 0000');
  });

  it('name each field at fault in words the messages have', () => {
    expect(customerProblems(emptyCustomer)).toEqual({
      name: { key: 'required' },
      email: { key: 'required' },
      address: { key: 'required' },
      city: { key: 'required' },
      postalCode: { key: 'required' },
      country: { key: 'country' },
    });
    expect(customerProblems({ ...ada, email: 'ada@' })).toEqual({ email: { key: 'email' } });
    // Japan: the prefecture opens the city line; a prefecture without its city is no address.
    const tokyo = { ...ada, country: 'JP', postalCode: '150-0001', address: '神宮前1-2-3' };
    expect(customerProblems({ ...tokyo, city: '東京都渋谷区' })).toEqual({});
    expect(customerProblems({ ...tokyo, city: '東京都' })).toEqual({ city: { key: 'required' } });
    expect(customerProblems({ ...tokyo, city: '東京都  ' })).toEqual({ city: { key: 'required' } });
    expect(customerProblems({ ...ada, city: '東京都' })).toEqual({});
    expect(customerProblems({ ...ada, name: ' A ' })).toEqual({ name: { key: 'nameShort' } });
    expect(customerProblems({ ...ada, address: 'ab' })).toEqual({ address: { key: 'addressShort' } });
    expect(customerProblems({ ...ada, postalCode: 'x'.repeat(21) })).toEqual({ postalCode: { key: 'tooLong', values: { max: 20 } } });
    expect(customerProblems({ ...ada, phone: '1'.repeat(41) })).toEqual({ phone: { key: 'tooLong', values: { max: 40 } } });
  });

  it('map the server’s field paths back onto the form', () => {
    expect(customerFieldOf('customer.email')).toBe('email');
    expect(customerFieldOf('customer.country')).toBe('country');
    expect(customerFieldOf('artworkSlug')).toBeNull();
    expect(customerFieldOf('customer.shoeSize')).toBeNull();
  });
});

describe('the canvas of a size', () => {
  it('is turned the way the painting is', () => {
    expect(canvasCm('50x70', 0.8)).toEqual({ widthCm: 50, heightCm: 70 });
    expect(canvasCm('50x70', 1.25)).toEqual({ widthCm: 70, heightCm: 50 });
    expect(canvasCm('90x120', null)).toEqual({ widthCm: 90, heightCm: 120 });
  });
});
