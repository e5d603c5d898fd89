// Per store, the deletion rate versus its limit, and the store's utilization, over the last 24 h (or a shorter
// window). The history is the control plane's (GET /api/dashboard/throttle): every deletion replica publishes its
// throttle every 10 s and the control plane keeps a day of it, so a reload, a new browser or another replica loses
// nothing. Current figures are every replica's newest sample added up.

import { $, h, message, setText, show } from '../dom.js';
import { drawLineChart } from '../chart.js';

const NS = 'http://www.w3.org/2000/svg';
// the charts change at most once per sample interval: no need to ask on every 2-s tick
const REFRESH_MILLIS = 5000;

export function throttlePanel(ctx) {
  const container = $('#throttle-stores');
  const windowSelect = $('#throttle-window');
  const cards = new Map();
  let last = { at: 0, minutes: null };
  let asked = 0; // the newest request: an older answer arriving later is dropped

  // no window longer than the control plane keeps (erasure.dashboard.throttle-history)
  const kept = Number(ctx.config.throttleHistoryMinutes) || 1440;
  for (const option of [...windowSelect.options]) {
    if (Number(option.value) > kept) {
      option.remove();
    }
  }
  if (![...windowSelect.options].some((o) => o.selected && Number(o.value) <= kept)) {
    windowSelect.append(new Option(kept < 60 ? `${kept} min` : `${Math.round(kept / 60)} h`, String(kept), true, true));
  }

  function chart(testid) {
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('class', 'chart');
    svg.dataset.testid = testid;
    svg.id = testid;
    return svg;
  }

  function card(store) {
    if (!cards.has(store)) {
      const limit = h('span', { testid: `throttle-limit-${store}` });
      const rate = h('span', { testid: `throttle-rate-${store}` });
      const utilization = h('span', { testid: `throttle-utilization-${store}` });
      const replicas = h('span', { testid: `throttle-replicas-${store}` });
      const decision = h('span', { testid: `throttle-decision-${store}` });
      const rateChart = chart(`throttle-chart-rate-${store}`);
      const utilizationChart = chart(`throttle-chart-utilization-${store}`);
      const el = h('div', { testid: `throttle-store-${store}`, class: 'store' },
        h('h3', { text: store }),
        h('div', { class: 'figures' },
          h('span', {}, 'limit ', limit, ' rows/s'), h('span', {}, 'rate ', rate, ' rows/s'),
          h('span', {}, 'utilization ', utilization), h('span', {}, 'replicas ', replicas),
          h('span', {}, 'last step ', decision)),
        rateChart, utilizationChart);
      container.append(el);
      cards.set(store, { el, limit, rate, utilization, replicas, decision, rateChart, utilizationChart });
    }
    return cards.get(store);
  }

  const points = (history, field) => history.points.map((p) => ({ t: Date.parse(p.t), v: p[field] }));

  function render(answer) {
    const from = Date.parse(answer.from);
    const to = Date.parse(answer.to);
    const stores = [...answer.stores].sort((a, b) => a.store.localeCompare(b.store));
    // a store with nothing in this window has no card
    for (const [store, c] of cards) {
      if (!stores.some((s) => s.store === store)) {
        c.el.remove();
        cards.delete(store);
      }
    }
    for (const history of stores) {
      const c = card(history.store);
      const now = history.current;
      setText(c.limit, now ? now.limit : null);
      setText(c.rate, now ? now.rate : null);
      setText(c.utilization, now ? `${Math.round(now.utilization * 100)}%` : null);
      setText(c.replicas, now ? now.replicas : 0);
      setText(c.decision, now ? [...new Set(Object.values(now.decisions))].join(', ') : null);
      const reported = history.points.filter((p) => p.rate !== null && Date.parse(p.t) >= from);
      for (const svg of [c.rateChart, c.utilizationChart]) {
        svg.dataset.points = String(reported.length);
        svg.dataset.from = answer.from;
        svg.dataset.first = reported.length ? reported[0].t : '';
      }
      drawLineChart(c.rateChart, {
        from, to, minMax: 10,
        series: [
          { name: 'rate (rows/s)', points: points(history, 'rate') },
          { name: 'limit (rows/s)', points: points(history, 'limit') },
        ],
      });
      drawLineChart(c.utilizationChart, {
        from, to, minMax: 1, format: (v) => `${Math.round(v * 100)}%`,
        series: [{ name: 'utilization', points: points(history, 'utilization') }],
      });
    }
    show($('#throttle-empty'), stores.length === 0);
  }

  async function refresh(force) {
    const minutes = Number(windowSelect.value);
    if (!force && last.minutes === minutes && Date.now() - last.at < REFRESH_MILLIS) {
      return;
    }
    last = { at: Date.now(), minutes };
    const request = ++asked;
    let answer;
    try {
      answer = await ctx.api.get(`/api/dashboard/throttle?minutes=${minutes}`);
    } catch (e) {
      message($('#throttle-status'), e.message, 'error');
      throw e; // the dashboard signs out on a refused session and shows the error
    }
    if (request !== asked) {
      return;
    }
    render(answer);
    const replicas = new Set(answer.stores.flatMap((s) => Object.keys(s.current?.decisions || {})));
    message($('#throttle-status'), `${answer.stores.length} store(s), ${replicas.size} deletion replica(s)`
      + ` reporting; one point per ${answer.stepSeconds} s`, 'ok');
  }

  windowSelect.addEventListener('change', () => refresh(true).catch(() => {}));

  return { refresh: () => refresh(false) };
}
