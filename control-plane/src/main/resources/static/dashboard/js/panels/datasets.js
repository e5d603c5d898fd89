// Datasets and owners, with the deletion backlog per dataset (GET /api/datasets, /api/dashboard/summary, /api/runs).

import { $, fmtCount, fmtDuration, fmtTime, h, setText, show, syncRows } from '../dom.js';

export function datasetsPanel(ctx) {
  const tbody = $('#datasets-table tbody');

  function create(view) {
    const name = view.spec.name;
    const cell = (field, cls) => h('td', { testid: `dataset-${field}-${name}`, class: cls });
    const cells = {
      owner: cell('owner'), store: cell('store'), enabled: cell('enabled'), deletable: cell('deletable', 'num'),
      waiting: cell('waiting', 'num'), overdue: cell('overdue'), lastAudit: cell('last-audit'),
      lastRun: cell('last-run', 'state'), nextRun: cell('next-run'),
    };
    const row = h('tr', { testid: `dataset-row-${name}` }, h('td', { text: name }), ...Object.values(cells));
    row.cells$ = cells;
    return row;
  }

  function update(row, { view, backlog, lastRun }) {
    const c = row.cells$;
    const spec = view.spec;
    setText(c.owner, spec.ownerTeam);
    setText(c.store, `${spec.storeKind} ${spec.connectionRef}`);
    setText(c.enabled, view.enabled ? 'enabled' : 'disabled');
    setText(c.deletable, fmtCount(backlog ? backlog.deletableRows : 0));
    setText(c.waiting, backlog && backlog.waitingSeconds !== null ? fmtDuration(backlog.waitingSeconds) : null);
    setText(c.overdue, backlog && backlog.overdue ? 'OVERDUE' : 'no');
    c.overdue.classList.toggle('overdue', Boolean(backlog && backlog.overdue));
    setText(c.lastAudit, backlog ? fmtTime(backlog.lastAuditAt) : null);
    setText(c.lastRun, lastRun ? lastRun.state : null);
    c.lastRun.className = `state state-${lastRun ? lastRun.state : ''}`;
    c.lastRun.title = lastRun ? lastRun.id : '';
    setText(c.nextRun, view.enabled ? fmtTime(view.nextRunAt) : null);
  }

  return {
    async refresh() {
      const [datasets, summary, runs] = await Promise.all([
        ctx.datasets(true), ctx.api.get('/api/dashboard/summary'), ctx.api.get('/api/runs?limit=200')]);
      const latest = new Map();
      for (const run of runs || []) {
        const known = latest.get(run.dataset);
        if (!known || String(run.createdAt) > String(known.createdAt)) {
          latest.set(run.dataset, run);
        }
      }
      const items = datasets.map((view) => ({
        view, backlog: summary.datasets[view.spec.name], lastRun: latest.get(view.spec.name),
      })).sort((a, b) => a.view.spec.name.localeCompare(b.view.spec.name));
      syncRows(tbody, items, (item) => item.view.spec.name, (item) => create(item.view), update);
      show($('#datasets-empty'), items.length === 0);
      setText($('#datasets-summary-at'), fmtTime(summary.at));
    },
  };
}
