// The ops dashboard: sign-in, tabs, and a 2-second refresh of the shown panel.

import { ApiError, createApi, session } from './api.js';
import { $, fmtTime, message, setText, show } from './dom.js';
import { datasetsPanel } from './panels/datasets.js';
import { runsPanel } from './panels/runs.js';
import { approvalsPanel } from './panels/approvals.js';
import { killSwitchesPanel } from './panels/kill-switches.js';
import { throttlePanel } from './panels/throttle.js';
import { logPanel } from './panels/log.js';
import { recoveriesPanel } from './panels/recoveries.js';

const REFRESH_MILLIS = 2000;
const DEFAULT_CONFIG = {
  services: { deletionLog: 'http://127.0.0.1:8084', recovery: 'http://127.0.0.1:8085', deletion: 'http://127.0.0.1:8083' },
  overdueAfterSeconds: 86400,
};

async function loadConfig() {
  try {
    const response = await fetch('config.json', { cache: 'no-store' });
    if (!response.ok) {
      throw new Error(`${response.status} ${response.statusText}`);
    }
    return await response.json();
  } catch (e) {
    message($('#global-error'), `could not read config.json (${e.message}); using the local defaults`, 'error');
    return DEFAULT_CONFIG;
  }
}

/** What the panels share: the API, the config, the registered datasets, and ways to move between tabs. */
function createContext(config) {
  const api = createApi(config);
  let datasets = null;
  let datasetsAt = 0;
  const context = {
    api,
    config,
    /** The registered datasets (GET /api/datasets), re-read at most every 10 s unless fresh is asked. */
    async datasets(fresh = false) {
      if (fresh || !datasets || Date.now() - datasetsAt > 10_000) {
        datasets = (await api.get('/api/datasets')) || [];
        datasetsAt = Date.now();
        const list = $('#dataset-names');
        list.replaceChildren(...datasets.map((d) => new Option(d.spec.name)));
      }
      return datasets;
    },
    openTab: (name) => selectTab(name),
    panels: {},
  };
  return context;
}

let context;
let activeTab = null;
let ticker = null;
const busy = new Set();

const TABS = ['datasets', 'runs', 'approvals', 'kill-switches', 'throttle', 'log', 'recoveries'];

function selectTab(name) {
  if (!TABS.includes(name)) {
    name = 'datasets';
  }
  activeTab = name;
  for (const tab of TABS) {
    $(`#tab-${tab}`).setAttribute('aria-selected', String(tab === name));
    show($(`#panel-${tab}`), tab === name);
  }
  if (location.hash !== `#${name}`) {
    history.replaceState(null, '', `#${name}`);
  }
  refreshPanel(name);
}

/** Runs task once at a time per name: a slow service never piles up requests. */
async function once(name, task) {
  if (busy.has(name)) {
    return;
  }
  busy.add(name);
  try {
    await task();
  } finally {
    busy.delete(name);
  }
}

function refreshPanel(name) {
  const panel = context?.panels[name];
  if (!panel?.refresh) {
    return Promise.resolve();
  }
  return once(name, async () => {
    const errorEl = $(`#${name}-error`);
    try {
      await panel.refresh();
      if (errorEl) {
        message(errorEl, '');
      }
      setText($('#last-refresh'), fmtTime(new Date().toISOString()));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && e.service === 'controlPlane') {
        signOut('Your session is no longer accepted by the control plane: sign in again.');
        return;
      }
      if (errorEl) {
        message(errorEl, e.message, 'error');
      } else {
        console.error(e);
      }
    }
  });
}

function tick() {
  if (!session.get()) {
    return;
  }
  refreshPanel(activeTab);
  if (activeTab !== 'approvals') {
    once('approvals-count', () => context.panels.approvals.count().catch(() => {}));
  }
}

function showSignedIn(user) {
  show($('#login-panel'), false);
  show($('#app'), true);
  show($('#who'), true);
  setText($('#current-user'), user);
  selectTab(location.hash.slice(1) || 'datasets');
  clearInterval(ticker);
  ticker = setInterval(tick, REFRESH_MILLIS);
  tick();
}

const SIGN_OUT_REASON = 'erasure.dashboard.sign-out-reason';

/** Forgets the credentials and reloads, so nothing of the previous user's page survives. */
function signOut(reason) {
  session.clear();
  if (reason) {
    sessionStorage.setItem(SIGN_OUT_REASON, reason);
  }
  location.reload();
}

function showSignIn() {
  show($('#app'), false);
  show($('#who'), false);
  show($('#login-panel'), true);
  message($('#login-error'), sessionStorage.getItem(SIGN_OUT_REASON) || '', 'error');
  sessionStorage.removeItem(SIGN_OUT_REASON);
  $('#login-username').focus();
}

async function signIn(event) {
  event.preventDefault();
  const user = $('#login-username').value.trim();
  const password = $('#login-password').value;
  const submit = $('#login-submit');
  submit.disabled = true;
  message($('#login-error'), '');
  try {
    session.set(user, password);
    await context.api.get('/api/dashboard/summary');
    $('#login-password').value = '';
    showSignedIn(user);
  } catch (e) {
    session.clear();
    const reason = e instanceof ApiError && e.status === 401 ? 'Unknown user or wrong password.' : e.message;
    message($('#login-error'), reason, 'error');
  } finally {
    submit.disabled = false;
  }
}

async function start() {
  const config = await loadConfig();
  context = createContext(config);
  setText($('#overdue-after'), `${Math.round((config.overdueAfterSeconds || 86400) / 3600)}h`);
  context.panels = {
    datasets: datasetsPanel(context),
    runs: runsPanel(context),
    approvals: approvalsPanel(context),
    'kill-switches': killSwitchesPanel(context),
    throttle: throttlePanel(context),
    log: logPanel(context),
    recoveries: recoveriesPanel(context),
  };
  context.refresh = refreshPanel;
  for (const tab of TABS) {
    $(`#tab-${tab}`).addEventListener('click', () => selectTab(tab));
  }
  window.addEventListener('hashchange', () => {
    const name = location.hash.slice(1);
    if (session.get() && name !== activeTab && TABS.includes(name)) {
      selectTab(name);
    }
  });
  $('#login-form').addEventListener('submit', signIn);
  $('#logout-button').addEventListener('click', () => signOut());

  const current = session.get();
  if (!current) {
    showSignIn();
    return;
  }
  try {
    await context.api.get('/api/dashboard/summary');
    showSignedIn(current.user);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      session.clear();
      sessionStorage.setItem(SIGN_OUT_REASON, 'Sign in again.');
    } else {
      message($('#global-error'), e.message, 'error');
    }
    showSignIn();
  }
}

start();
