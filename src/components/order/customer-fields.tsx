'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAccount } from '@/components/favorites/use-favorites';
import { SelectField, TextField } from '@/components/ui/field';
import { countryForLocale, countryOptions } from './countries';
import { prefectures, splitPrefecture } from './prefectures';
import { customerFields, customerInput, customerProblems, emptyCustomer, type CustomerDraft, type CustomerField, type CustomerProblems } from './customer';
import styles from './order.module.css';

/** The id of one customer input, so a form can move focus to the first field at fault. */
export const customerFieldId = (idPrefix: string, field: CustomerField) => `${idPrefix}-customer-${field}`;

interface Props {
  value: CustomerDraft;
  onChange: (next: CustomerDraft) => void;
  /** Problems to show, one per field (see `useCustomerForm`). */
  errors: CustomerProblems;
  /** Called when a field loses focus: the moment to check it. */
  onBlur?: (field: CustomerField) => void;
  /** Keeps ids unique when two forms share a page. */
  idPrefix?: string;
}

const autoComplete: Record<CustomerField, string> = {
  name: 'name',
  email: 'email',
  phone: 'tel',
  address: 'address-line1',
  city: 'address-level2',
  postalCode: 'postal-code',
  country: 'country',
};

/**
 * Name, e-mail, phone (optional) and delivery address, exactly the fields of the server's `Customer`
 * schema. Errors are shown under each field through the shared field primitives, which announce them.
 */
export function CustomerFields({ value, onChange, errors, onBlur, idPrefix = 'order' }: Props) {
  const t = useTranslations('OrderForm');
  const locale = useLocale();
  // Country names come from Intl, whose data differs between Node and the browser: listing them
  // only in the browser keeps the server's HTML and the first client render identical (hydration).
  const [countries, setCountries] = useState<{ code: string; name: string }[]>([]);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- a browser-only value, read after hydration
  useEffect(() => setCountries(countryOptions(locale)), [locale]);
  const common = (field: CustomerField) => ({
    id: customerFieldId(idPrefix, field),
    name: field,
    autoComplete: autoComplete[field],
    error: errors[field] ? t(`errors.${errors[field].key}`, errors[field].values ?? { max: 0 }) : null,
    onBlur: () => onBlur?.(field),
  });
  const text = (field: Exclude<CustomerField, 'country'>) => ({
    ...common(field),
    value: value[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [field]: e.target.value }),
  });

  const country = (
    <SelectField {...common('country')} label={t('fields.country')} value={value.country} onChange={(e) => onChange({ ...value, country: e.target.value })} required>
      <option value="">{t('countryPlaceholder')}</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
  const contact = (
    <>
      <TextField {...text('name')} label={t('fields.name')} required />
      <TextField {...text('email')} label={t('fields.email')} hint={t('hints.email')} type="email" inputMode="email" required spellCheck={false} />
      <TextField {...text('phone')} label={t('fields.phone')} hint={t('hints.phone')} type="tel" optionalText={t('optional')} />
    </>
  );

  if (value.country === 'JP') {
    // As a Japanese address is written: postal code, prefecture, city, then the block and building.
    const { prefecture, rest } = splitPrefecture(value.city);
    const city = (next: { prefecture?: string; rest?: string }) => onChange({ ...value, city: `${next.prefecture ?? prefecture}${next.rest ?? rest}` });
    return (
      <div className={styles.customer} data-address="jp">
        {contact}
        {country}
        <TextField {...text('postalCode')} label={t('fields.postalCode')} hint={t('hints.postalCodeJp')} inputMode="numeric" required />
        <div className={styles.pair}>
          <SelectField
            id={`${idPrefix}-customer-prefecture`}
            name="prefecture"
            autoComplete="address-level1"
            label={t('fields.prefecture')}
            value={prefecture}
            onChange={(e) => city({ prefecture: e.target.value })}
          >
            <option value="">{t('prefecturePlaceholder')}</option>
            {prefectures.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
          <TextField {...text('city')} label={t('fields.cityJp')} value={rest} onChange={(e) => city({ rest: e.target.value })} required />
        </div>
        <TextField {...text('address')} label={t('fields.addressJp')} required />
      </div>
    );
  }

  return (
    <div className={styles.customer}>
      {contact}
      <TextField {...text('address')} label={t('fields.address')} required />
      <div className={styles.pair}>
        <TextField {...text('city')} label={t('fields.city')} required />
        <TextField {...text('postalCode')} label={t('fields.postalCode')} required />
      </div>
      {country}
    </div>
  );
}

/**
 * The state behind `CustomerFields`: a field is checked when it loses focus, and every field on
 * submit; a shown error is re-checked as the shopper types, so it goes away as soon as it is fixed
 * (but a new one never appears mid-typing).
 */
export function useCustomerForm(initial: CustomerDraft = emptyCustomer) {
  const locale = useLocale();
  const [value, setValue] = useState<CustomerDraft>(() => (initial.country ? initial : { ...initial, country: countryForLocale(locale) }));
  const [errors, setErrors] = useState<CustomerProblems>({});
  const touched = useRef(new Set<CustomerField>());

  // Signed in, the account's name and e-mail are written in for the shopper, once, where the fields
  // are still empty: never over what was typed, nor again into a field they emptied. The e-mail
  // stays theirs to change (a gift, a work address).
  const { user } = useAccount();
  const prefilled = useRef(false);
  useEffect(() => {
    if (!user || prefilled.current) return;
    prefilled.current = true;
    setValue((draft) => ({ ...draft, name: draft.name || (user.name ?? ''), email: draft.email || (user.email ?? '') }));
  }, [user]);

  const shownFor = useCallback((draft: CustomerDraft, keep: (field: CustomerField) => boolean) => {
    const all = customerProblems(draft);
    const shown: CustomerProblems = {};
    for (const field of customerFields) if (all[field] && keep(field)) shown[field] = all[field];
    return shown;
  }, []);

  const onChange = useCallback(
    (next: CustomerDraft) => {
      setValue(next);
      setErrors((current) => shownFor(next, (field) => field in current));
    },
    [shownFor],
  );

  const onBlur = useCallback(
    (field: CustomerField) => {
      touched.current.add(field);
      setErrors(shownFor(value, (f) => touched.current.has(f)));
    },
    [shownFor, value],
  );

  /** Checks every field and shows every problem; the customer body when all is well. */
  const validate = useCallback(() => {
    for (const field of customerFields) touched.current.add(field);
    const problems = customerProblems(value);
    setErrors(problems);
    return { problems, customer: Object.keys(problems).length === 0 ? customerInput(value) : null };
  }, [value]);

  return { value, onChange, onBlur, errors, setErrors, validate };
}
