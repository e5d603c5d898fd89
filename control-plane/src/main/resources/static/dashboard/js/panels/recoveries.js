// Recovery requests and their per-record outcomes (recovery-service GET /api/recoveries, /api/recoveries/{id}/outcomes).

import { $, fmtCount, fmtJson, fmtTime, h, setText, show, syncRows } from '../dom.js';

export function recoveriesPanel(ctx) {
  const tbody = $('#recoveries-table tbody');
  let selected = null;

  function create(request) {
    const id = request.id;
    const cell = (field, cls) => h('td', { testid: `recovery-${field}-${id}`, class: cls });
    const cells = {
      requestedAt: h('td'), requestedBy: cell('requested-by'), dataset: cell('dataset'), scope: h('td'),
      mode: cell('mode'), status: cell('status', 'state'), progress: cell('progress', 'num'),
      restored: cell('restored', 'num'), conflicts: cell('conflicts', 'num'), expired: cell('expired', 'num'),
      failed: cell('failed', 'num'), notInLog: cell('not-in-log', 'num'), failure: cell('failure'),
    };
    const outcomes = h('button', { type: 'button', testid: `recovery-outcomes-button-${id}`, text: 'Outcomes',
      onclick: () => select(id) });
    const row = h('tr', { testid: `recovery-row-${id}` }, ...Object.values(cells), h('td', {}, outcomes));
    row.cells$ = cells;
    return row;
  }

  function update(row, r) {
    const c = row.cells$;
    setText(c.requestedAt, fmtTime(r.requestedAt));
    setText(c.requestedBy, r.requestedBy);
    setText(c.dataset, r.dataset);
    setText(c.scope, r.scopeKind);
    c.scope.title = r.scope ? JSON.stringify(r.scope) : '';
    setText(c.mode, r.dryRun ? 'dry-run' : 'restore');
    setText(c.status, r.status);
    c.status.className = `state state-${r.status}`;
    setText(c.progress, `${fmtCount(r.recordsDone)} / ${fmtCount(r.recordsTotal)}`);
    setText(c.restored, fmtCount(r.restored));
    setText(c.conflicts, fmtCount(r.conflicts));
    setText(c.expired, fmtCount(r.expired));
    setText(c.failed, fmtCount(r.failed));
    setText(c.notInLog, fmtCount(r.notInLog));
    setText(c.failure, r.failure);
    row.classList.toggle('selected', r.id === selected);
  }

  async function select(id) {
    selected = id;
    [...tbody.children].forEach((row) => row.classList.toggle('selected', row.dataset.key === id));
    await showOutcomes();
  }

  async function showOutcomes() {
    if (!selected) {
      show($('#recovery-outcomes'), false);
      return;
    }
    const items = (await ctx.api.service('recovery', `/api/recoveries/${encodeURIComponent(selected)}/outcomes?limit=500`)) || [];
    setText($('#recovery-outcomes-title'), `Outcomes of recovery ${selected}`);
    $('#recovery-outcomes-table tbody').replaceChildren(...items.map((item) => h('tr', {
      'data-testid': 'recovery-outcome', dataset: { recordId: item.recordId || '', outcome: item.outcome },
    },
    h('td', { 'data-testid': 'recovery-outcome-value', class: 'state', text: item.outcome }),
    h('td', { 'data-testid': 'recovery-outcome-key' }, h('code', { text: fmtJson(item.primaryKey) })),
    h('td', { 'data-testid': 'recovery-outcome-detail', text: item.detail || '—' }),
    h('td', { text: fmtTime(item.deletedAt) }),
    h('td', { 'data-testid': 'recovery-outcome-run', text: item.runId || '—' }))));
    show($('#recovery-outcomes-empty'), items.length === 0);
    show($('#recovery-outcomes'), true);
  }

  return {
    /** Shows this recovery's outcomes the next time the panel refreshes (after a Recover on the log tab). */
    select(id) {
      selected = id;
    },
    async refresh() {
      const requests = (await ctx.api.service('recovery', '/api/recoveries?limit=50')) || [];
      syncRows(tbody, requests, (r) => r.id, create, update);
      show($('#recoveries-empty'), requests.length === 0);
      await showOutcomes();
    },
  };
}
