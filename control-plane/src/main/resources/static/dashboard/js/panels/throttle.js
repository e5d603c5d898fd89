// Per-store deletion rate versus limit, and the store's utilization, over time. Sampled from deletion-service's
// Micrometer meters through its /actuator/metrics endpoint every 2 s; the history lives in this page only.
//   erasure.deletion.rate.limit{store}          the adaptive limit (rows/s) of this replica
//   erasure.deletion.store.utilization{store}   the store's own load signal (0..1)
//   erasure.deletion.rows{dataset,outcome}      rows per dataset; a store's rate is the sum over its datasets

import { $, h, message, setText, show } from '../dom.js';
import { drawLineChart } from '../chart.js';

const WINDOW_MILLIS = 5 * 60 * 1000;
const METRICS = '/actuator/metrics/';

export function throttlePanel(ctx) {
  const container = $('#throttle-stores');
  const history = new Map(); // store -> [{ t, limit, rate, utilization }]
  let previousRows = null; // { t, byDataset: Map }
  const cards = new Map();

  const meter = (name, tags = []) => ctx.api.service('deletion',
    METRICS + name + (tags.length ? '?' + tags.map((tag) => `tag=${encodeURIComponent(tag)}`).join('&') : ''));

  // a meter that does not exist yet answers 404
  async function optional(name, tags) {
    try {
      return await meter(name, tags);
    } catch (e) {
      if (e.status === 404) {
        return null;
      }
      throw e;
    }
  }

  const tagValues = (response, tag) => ((response?.availableTags || []).find((t) => t.tag === tag)?.values) || [];
  const measurement = (response, statistic) =>
    (response?.measurements || []).find((m) => m.statistic === statistic)?.value ?? null;

  /** Which store (connection ref) each dataset, and each copy's view ("<source>--<copy>"), deletes from. */
  async function storesByDataset() {
    const map = new Map();
    for (const view of await ctx.datasets()) {
      map.set(view.spec.name, view.spec.connectionRef);
      for (const copy of view.spec.copies || []) {
        map.set(`${view.spec.name}--${copy.name}`, copy.connectionRef);
      }
    }
    return map;
  }

  async function deletedRows() {
    const all = await optional('erasure.deletion.rows', ['outcome:deleted']);
    const byDataset = new Map();
    await Promise.all(tagValues(all, 'dataset').map(async (dataset) => {
      const one = await optional('erasure.deletion.rows', ['outcome:deleted', `dataset:${dataset}`]);
      byDataset.set(dataset, measurement(one, 'COUNT') ?? 0);
    }));
    return byDataset;
  }

  async function sample() {
    const t = Date.now();
    const limits = await optional('erasure.deletion.rate.limit');
    const stores = tagValues(limits, 'store');
    const [rows, owners] = await Promise.all([deletedRows(), storesByDataset()]);
    const seconds = previousRows ? (t - previousRows.t) / 1000 : 0;
    const rates = new Map(stores.map((store) => [store, previousRows ? 0 : null]));
    if (previousRows && seconds > 0) {
      for (const [dataset, count] of rows) {
        const store = owners.get(dataset);
        const before = previousRows.byDataset.get(dataset) ?? 0;
        if (rates.has(store) && rates.get(store) !== null) {
          // a restarted deletion-service starts its counters again from 0
          rates.set(store, count >= before ? rates.get(store) + (count - before) / seconds : null);
        }
      }
    }
    previousRows = { t, byDataset: rows };
    await Promise.all(stores.map(async (store) => {
      const [limit, utilization] = await Promise.all([
        optional('erasure.deletion.rate.limit', [`store:${store}`]),
        optional('erasure.deletion.store.utilization', [`store:${store}`])]);
      const samples = history.get(store) || [];
      samples.push({ t, limit: measurement(limit, 'VALUE'), utilization: measurement(utilization, 'VALUE'), rate: rates.get(store) });
      while (samples.length && samples[0].t < t - WINDOW_MILLIS) {
        samples.shift();
      }
      history.set(store, samples);
    }));
    return stores.length;
  }

  function card(store) {
    if (!cards.has(store)) {
      const limit = h('span', { testid: `throttle-limit-${store}` });
      const rate = h('span', { testid: `throttle-rate-${store}` });
      const utilization = h('span', { testid: `throttle-utilization-${store}` });
      const NS = 'http://www.w3.org/2000/svg';
      const rateChart = document.createElementNS(NS, 'svg');
      rateChart.setAttribute('class', 'chart');
      rateChart.dataset.testid = `throttle-chart-rate-${store}`;
      rateChart.id = rateChart.dataset.testid;
      const utilizationChart = document.createElementNS(NS, 'svg');
      utilizationChart.setAttribute('class', 'chart');
      utilizationChart.dataset.testid = `throttle-chart-utilization-${store}`;
      utilizationChart.id = utilizationChart.dataset.testid;
      const el = h('div', { testid: `throttle-store-${store}`, class: 'store' },
        h('h3', { text: store }),
        h('div', { class: 'figures' },
          h('span', {}, 'limit ', limit, ' rows/s'), h('span', {}, 'rate ', rate, ' rows/s'),
          h('span', {}, 'utilization ', utilization)),
        rateChart, utilizationChart);
      container.append(el);
      cards.set(store, { el, limit, rate, utilization, rateChart, utilizationChart });
    }
    return cards.get(store);
  }

  function render() {
    const now = Date.now();
    const from = now - WINDOW_MILLIS;
    for (const [store, samples] of [...history.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const c = card(store);
      const last = samples[samples.length - 1] || {};
      setText(c.limit, last.limit === null || last.limit === undefined ? null : Math.round(last.limit));
      setText(c.rate, last.rate === null || last.rate === undefined ? null : last.rate.toFixed(1));
      setText(c.utilization, last.utilization === null || last.utilization === undefined ? null
        : `${Math.round(last.utilization * 100)}%`);
      drawLineChart(c.rateChart, {
        from, to: now, minMax: 10,
        series: [
          { name: 'rate (rows/s)', points: samples.map((s) => ({ t: s.t, v: s.rate })) },
          { name: 'limit (rows/s)', points: samples.map((s) => ({ t: s.t, v: s.limit })) },
        ],
      });
      drawLineChart(c.utilizationChart, {
        from, to: now, minMax: 1, format: (v) => `${Math.round(v * 100)}%`,
        series: [{ name: 'utilization', points: samples.map((s) => ({ t: s.t, v: s.utilization })) }],
      });
    }
    show($('#throttle-empty'), history.size === 0);
  }

  return {
    /** One sample; runs on every tick whichever tab is shown, so the charts have a history when opened. */
    async sample() {
      try {
        const stores = await sample();
        message($('#throttle-status'), `sampling ${ctx.api.base('deletion')} every 2 s: ${stores} store(s)`, 'ok');
      } catch (e) {
        message($('#throttle-status'), e.status === 0 ? `deletion-service unreachable: ${e.message}` : e.message, 'error');
      }
      render();
    },
    refresh: async () => render(),
  };
}
