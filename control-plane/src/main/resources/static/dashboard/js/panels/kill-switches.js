// Kill switches, global and per dataset (GET /api/kill-switches, PUT /api/kill-switches/{scope}).

import { $, fmtTime, h, message, setText, syncRows } from '../dom.js';

export function killSwitchesPanel(ctx) {
  const tbody = $('#kill-switches-table tbody');

  async function flip(item, row) {
    const c = row.cells$;
    c.toggle.disabled = true;
    try {
      const reason = c.reasonInput.value.trim();
      const result = await ctx.api.put(`/api/kill-switches/${encodeURIComponent(item.scope)}`,
        { active: !item.active, reason });
      c.reasonInput.value = '';
      message(c.message, `${result.active ? 'ON: deletion stopped' : 'OFF: deletion resumed'} by ${result.changedBy}`, 'ok');
    } catch (e) {
      message(c.message, e.message, 'error');
    } finally {
      c.toggle.disabled = false;
    }
    await ctx.refresh('kill-switches');
  }

  function create(item) {
    const scope = item.scope;
    const cell = (field) => h('td', { testid: `killswitch-${field}-${scope}` });
    const state = h('span', { testid: `killswitch-state-${scope}`, class: 'state' });
    const row = h('tr', { testid: `killswitch-row-${scope}` });
    const reasonInput = h('input', { testid: `killswitch-reason-input-${scope}`, placeholder: 'reason (required)', size: '24' });
    const toggle = h('button', { type: 'button', testid: `killswitch-toggle-${scope}`,
      onclick: () => flip(row.item$, row) });
    const result = h('div', { testid: `killswitch-message-${scope}`, class: 'message small', hidden: true });
    const cells = { changedBy: cell('changed-by'), changedAt: cell('changed-at'), reason: cell('reason') };
    row.append(h('td', {}, scope === 'global' ? h('strong', { text: 'global (every dataset)' }) : scope),
      h('td', {}, state), cells.changedBy, cells.changedAt, cells.reason,
      h('td', {}, reasonInput, ' ', toggle, result));
    row.cells$ = { ...cells, state, reasonInput, toggle, message: result };
    return row;
  }

  function update(row, item) {
    row.item$ = item;
    const c = row.cells$;
    setText(c.state, item.active ? 'ON' : 'OFF');
    c.state.className = `state state-${item.active ? 'ON' : 'OFF'}`;
    setText(c.changedBy, item.changedBy);
    setText(c.changedAt, item.changedAt ? fmtTime(item.changedAt) : null);
    setText(c.reason, item.reason);
    setText(c.toggle, item.active ? 'Resume deletion' : 'Stop deletion');
    c.toggle.classList.toggle('danger', !item.active);
  }

  return {
    async refresh() {
      const [switches, datasets] = await Promise.all([ctx.api.get('/api/kill-switches'), ctx.datasets()]);
      const byScope = new Map((switches || []).map((s) => [s.scope, s]));
      // a scope nobody flipped yet has no row in the API: it is off
      const scopes = ['global', ...datasets.map((d) => d.spec.name).sort()];
      for (const s of byScope.keys()) {
        if (!scopes.includes(s)) {
          scopes.push(s);
        }
      }
      const items = scopes.map((scope) => byScope.get(scope) || { scope, active: false });
      syncRows(tbody, items, (item) => item.scope, create, update);
    },
  };
}
