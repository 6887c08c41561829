import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import styles from './field.module.css';

interface Frame {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the control and announced with it (aria-describedby); marks it invalid. */
  error?: string | null;
  /** Text after the label for optional fields, e.g. t('optional'). */
  optionalText?: string;
}

/** Label, control, hint and error wired together for screen readers; every form of the shop uses it. */
function FieldFrame({ id, label, hint, error, optionalText, children }: Frame & { children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {optionalText ? <span className={styles.optional}>{optionalText}</span> : null}
      </label>
      {children}
      {hint ? (
        <p className={styles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function described({ id, hint, error }: Pick<Frame, 'id' | 'hint' | 'error'>) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return { 'aria-describedby': ids || undefined, 'aria-invalid': error ? true : undefined };
}

export function TextField({ id, label, hint, error, optionalText, className, type = 'text', ...input }: Frame & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optionalText={optionalText}>
      {/* `type` always written out: HTML takes a missing one as text, but checkers of `autocomplete` (HTML_CodeSniffer's H98) read the attribute. */}
      <input id={id} type={type} className={[styles.control, className].filter(Boolean).join(' ')} {...described({ id, hint, error })} {...input} />
    </FieldFrame>
  );
}

export function SelectField({ id, label, hint, error, optionalText, className, children, ...select }: Frame & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optionalText={optionalText}>
      <select id={id} className={[styles.control, className].filter(Boolean).join(' ')} {...described({ id, hint, error })} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({ id, label, hint, error, optionalText, className, ...area }: Frame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optionalText={optionalText}>
      <textarea id={id} className={[styles.control, className].filter(Boolean).join(' ')} {...described({ id, hint, error })} {...area} />
    </FieldFrame>
  );
}
