'use client';

import { useEffect, useId, useRef, useState } from 'react';
import styles from './site.module.css';

interface Item {
  kind: 'artwork' | 'artist';
  slug: string;
  label: string;
  sublabel: string | null;
}

interface Props {
  id: string;
  locale: string;
  placeholder: string;
  defaultValue?: string;
  /** `/<locale>/artworks/` and `/<locale>/artists/`: where an item leads, its slug appended. */
  artworkBase: string;
  artistBase: string;
  /** Read aloud with the list: "Artwork", "Artist", and "{n} suggestions". */
  kindLabels: { artwork: string; artist: string };
  listLabel: string;
}

const DEBOUNCE_MS = 150;

/** Whether the box holds something to ask suggestions for (not empty, not longer than the server takes). */
const askable = (text: string) => text.trim().length > 0 && text.trim().length <= 100;

/**
 * The header's search box as an ARIA 1.2 combobox (an editable input with a listbox popup):
 * suggestions from GET /v1/search/suggestions while typing (debounced; the answers are public and
 * cached), arrow keys move through them, Enter opens the one chosen (or submits the form as typed
 * when none is), Escape closes the list, then clears the box. It stays an ordinary input of the
 * surrounding GET form, so search works before and without JavaScript. No library: a few hundred
 * bytes of logic instead of a combobox package.
 */
export function SearchCombobox({ id, locale, placeholder, defaultValue, artworkBase, artistBase, kindLabels, listLabel }: Props) {
  const listId = useId();
  const [value, setValue] = useState(defaultValue ?? '');
  const [items, setItems] = useState<Item[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const asked = useRef(0);
  // A box with nothing to ask about shows no suggestions.
  const change = (text: string) => {
    setValue(text);
    if (!askable(text)) setItems([]);
  };

  useEffect(() => {
    if (!askable(value)) return;
    const q = value.trim();
    const ask = ++asked.current;
    const controller = new AbortController();
    const suggest = async () => {
      try {
        const params = new URLSearchParams({ q, locale });
        const response = await fetch(`/v1/search/suggestions?${params}`, { signal: controller.signal });
        if (!response.ok || ask !== asked.current) return;
        const body = (await response.json()) as { items: Item[] };
        setItems(body.items);
        setActive(-1);
      } catch {
        // A lost suggestion is no error: the form still searches.
      }
    };
    const timer = setTimeout(() => void suggest(), DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, locale]);

  const expanded = open && items.length > 0;
  const hrefOf = (item: Item) => (item.kind === 'artwork' ? artworkBase : artistBase) + item.slug;
  const optionId = (index: number) => `${listId}-${index}`;

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!items.length) return;
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : items.length - 1);
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Past either end the focus returns to the text (no option active), as in the APG example.
      setActive((current) => {
        const next = current + step;
        return next < -1 ? items.length - 1 : next >= items.length ? -1 : next;
      });
    } else if (event.key === 'Enter') {
      if (expanded && active >= 0 && items[active]) {
        event.preventDefault();
        window.location.assign(hrefOf(items[active]));
      }
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (value) {
        event.preventDefault();
        change('');
      }
    }
  }

  return (
    <div className={styles.combo}>
      <input
        id={id}
        name="q"
        // A combobox, as the ARIA practices write one: HTML gives type=search the searchbox role
        // only, so the field is text, with a phone's search key.
        type="text"
        inputMode="search"
        enterKeyHint="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        placeholder={placeholder}
        value={value}
        maxLength={200}
        autoComplete="off"
        onChange={(event) => {
          change(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label={listLabel} className={styles.suggestions} hidden={!expanded}>
        {items.map((item, index) => (
          <li
            key={`${item.kind}:${item.slug}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={styles.suggestion}
            // mousedown, not click: the input's blur would close the list before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              window.location.assign(hrefOf(item));
            }}
            onMouseEnter={() => setActive(index)}
          >
            <span className={styles.suggestionLabel}>{item.label}</span>
            <span className={styles.suggestionSublabel}>
              {kindLabels[item.kind]}
              {item.sublabel ? ` · ${item.sublabel}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
