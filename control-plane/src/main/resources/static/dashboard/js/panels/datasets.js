// Datasets and owners, with the deletion backlog per dataset (GET /api/datasets, /api/dashboard/summary, /api/runs)
// and whether their deleted rows may still be on disk (deletion-service GET /api/purge: Cassandra datasets, search
// indexes), theirs and their copies'.

import { $, fmtCount, fmtDuration, fmtTime, h, setText, show, syncRows } from '../dom.js';

const PURGE_REREAD_MILLIS = 10_000;

/** "still on disk until <t>", "still on disk, purgeable since <t>", "purged", or null (no deletes, unknown). */
export function onDiskText(line, now = Date.now()) {
  if (!line || line.error || line.stillOnDisk === null || line.stillOnDisk === undefined) {
    return null;
  }
  if (!line.stillOnDisk) {
    return 'purged';
  }
  return new Date(line.purgeableAt).getTime() > now ? `still on disk until ${fmtTime(line.purgeableAt)}`
    : `still on disk, purgeable since ${fmtTime(line.purgeableAt)}`;
}

export function datasetsPanel(ctx) {
  const tbody = $('#datasets-table tbody');
  let purge = { at: 0, byDataset: new Map(), problem: null };

  /** deletion-service's purge status, re-read at most every 10 s; its absence never fails the panel. */
  async function purgeLines() {
    if (Date.now() - purge.at < PURGE_REREAD_MILLIS) {
      return purge;
    }
    try {
      const lines = (await ctx.api.service('deletion', '/api/purge')) || [];
      purge = { at: Date.now(), byDataset: new Map(lines.map((line) => [line.dataset, line])), problem: null };
    } catch (e) {
      purge = { at: Date.now(), byDataset: new Map(), problem: e.message };
    }
    return purge;
  }

  function create(view) {
    const name = view.spec.name;
    const cell = (field, cls) => h('td', { testid: `dataset-${field}-${name}`, class: cls });
    const cells = {
      owner: cell('owner'), store: cell('store'), enabled: cell('enabled'), deletable: cell('deletable', 'num'),
      waiting: cell('waiting', 'num'), overdue: cell('overdue'), lastAudit: cell('last-audit'),
      lastRun: cell('last-run', 'state'), nextRun: cell('next-run'), onDisk: cell('on-disk'), copies: cell('copies'),
    };
    const row = h('tr', { testid: `dataset-row-${name}` }, h('td', { text: name }), ...Object.values(cells));
    row.cells$ = cells;
    return row;
  }

  function update(row, { view, backlog, lastRun, onDisk, purgeProblem, copiesOnDisk }) {
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
    setText(c.onDisk, onDiskText(onDisk));
    c.onDisk.title = onDisk ? (onDisk.error || onDisk.explanation || '') : (purgeProblem || '');
    // each copy's store, and what its store still keeps of deleted data (its view is "<dataset>--<copy>")
    const copies = (spec.copies || []).map((copy) => {
      const line = copiesOnDisk.get(`${spec.name}--${copy.name}`);
      const status = onDiskText(line);
      return { text: `${copy.name} (${copy.storeKind} ${copy.connectionRef})${status ? `: ${status}` : ''}`,
        title: line ? (line.error || line.explanation || '') : '' };
    });
    setText(c.copies, copies.length ? copies.map((copy) => copy.text).join('; ') : null);
    c.copies.title = copies.map((copy) => copy.title).filter(Boolean).join('\n');
  }

  return {
    async refresh() {
      const [datasets, summary, runs, purged] = await Promise.all([
        ctx.datasets(true), ctx.api.get('/api/dashboard/summary'), ctx.api.get('/api/runs?limit=200'), purgeLines()]);
      const latest = new Map();
      for (const run of runs || []) {
        const known = latest.get(run.dataset);
        if (!known || String(run.createdAt) > String(known.createdAt)) {
          latest.set(run.dataset, run);
        }
      }
      const items = datasets.map((view) => ({
        view, backlog: summary.datasets[view.spec.name], lastRun: latest.get(view.spec.name),
        onDisk: purged.byDataset.get(view.spec.name), purgeProblem: purged.problem, copiesOnDisk: purged.byDataset,
      })).sort((a, b) => a.view.spec.name.localeCompare(b.view.spec.name));
      syncRows(tbody, items, (item) => item.view.spec.name, (item) => create(item.view), update);
      show($('#datasets-empty'), items.length === 0);
      setText($('#datasets-summary-at'), fmtTime(summary.at));
    },
  };
}
