// Small DOM helpers: element building, keyed table rows, formatting.

export const $ = (selector, root = document) => root.querySelector(selector);

export const DASH = '—';

/**
 * Builds an element. attrs: testid (sets data-testid and id: for unique elements), class, text, on<event>
 * handlers, dataset (object), anything else as an attribute (false/null skip it).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) {
      continue;
    }
    if (name === 'testid') {
      el.dataset.testid = value;
      el.id = value;
    } else if (name === 'class') {
      el.className = value;
    } else if (name === 'text') {
      el.textContent = value;
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else {
      el.setAttribute(name, value === true ? '' : value);
    }
  }
  el.append(...children.filter((c) => c !== null && c !== undefined));
  return el;
}

/** Sets the text, with a dash for a missing value; returns the element. */
export function setText(el, value) {
  const text = value === null || value === undefined || value === '' ? DASH : String(value);
  if (el.textContent !== text) {
    el.textContent = text;
  }
  return el;
}

export function show(el, visible) {
  el.hidden = !visible;
}

/** Shows a message (data-status ok/error) or hides it when text is empty. */
export function message(el, text, status = 'ok') {
  el.textContent = text || '';
  el.dataset.status = status;
  el.hidden = !text;
}

/**
 * Keeps one row per item in tbody, in the items' order, reusing the row of the same key so inputs and
 * messages in it survive a refresh. create(item) builds a row; update(row, item) fills it.
 */
export function syncRows(tbody, items, key, create, update) {
  const existing = new Map([...tbody.children].map((row) => [row.dataset.key, row]));
  let previous = null;
  for (const item of items) {
    const k = String(key(item));
    let row = existing.get(k);
    if (row) {
      existing.delete(k);
    } else {
      row = create(item);
      row.dataset.key = k;
    }
    update(row, item);
    const expected = previous ? previous.nextSibling : tbody.firstChild;
    if (row !== expected) {
      tbody.insertBefore(row, expected);
    }
    previous = row;
  }
  existing.forEach((row) => row.remove());
}

/** An instant (ISO string, epoch seconds or millis) as "2024-05-01 12:03:04Z". */
export function fmtTime(value) {
  if (value === null || value === undefined || value === '') {
    return DASH;
  }
  const date = typeof value === 'number' ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value);
  if (Number.isNaN(date.getTime())) {
    return String(value);
  }
  return date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** Seconds as "2d 3h", "3h 5m", "4m 10s", "12s". */
export function fmtDuration(seconds) {
  if (seconds === null || seconds === undefined) {
    return DASH;
  }
  const s = Math.max(0, Math.round(seconds));
  const units = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]];
  const parts = [];
  let rest = s;
  for (const [unit, size] of units) {
    if (rest >= size || (unit === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) {
      break;
    }
  }
  return parts.join(' ');
}

/** A count as plain digits, a dash when unknown. */
export function fmtCount(value) {
  return value === null || value === undefined || Number.isNaN(Number(value)) ? DASH : String(Math.round(Number(value)));
}

export function fmtJson(value) {
  return value === null || value === undefined ? DASH : JSON.stringify(value);
}
