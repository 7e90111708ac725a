// The task console: a web client of the public HTTP+JSON binding and nothing more. Everything a
// task carries is untrusted (agents write it), so it is put on the page as text, never as HTML.
import { A2AError, Client, STATES, isTerminal } from './a2a.js';

const TOKEN_KEY = 'a2a-console-token'; // sessionStorage: this tab only, never a URL or a cookie
const PAGE_SIZE = 100;
const LIVE_EVERY_MS = 1000;

const $ = id => document.getElementById(id);

const state = {
  client: null,
  card: null,          // { historyPaging, skewMillis }
  filters: {},         // the ListTasks filters of the walk shown
  tasks: new Map(),    // id -> task, for every row shown
  order: [],           // ids in the order shown: ListTasks order, changed tasks moved to the top
  nextPageToken: '',
  total: 0,
  mark: null,          // the newest status timestamp seen (ms), where the live catch-up starts
  live: null,
  selected: null,
  subscription: null,  // AbortController of the open task's SubscribeToTask
  transcript: { direction: 'DIRECTION_NEWEST_FIRST', nextPageToken: '' },
};

/** document.createElement with properties and children; text children become text nodes. */
function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? '')));
  return node;
}

// ---------------------------------------------------------------------------------------- errors

function showError(e) {
  const box = $('error');
  box.replaceChildren();
  if (e instanceof A2AError) {
    box.append(el('strong', {}, e.message));
    const facts = [e.http ? `HTTP ${e.http}` : '', e.status, e.reason ? `reason ${e.reason}` : ''].filter(Boolean).join(' · ');
    if (facts) box.append(el('div', { className: 'small' }, facts));
    if (e.retryAfter !== null && e.retryAfter !== undefined) box.append(el('div', {}, `Retry after ${e.retryAfter} s.`));
    if (e.http === 401) {
      box.append(el('div', {}, 'The token was refused: sign in again with a valid one.'));
      signOut(false);
    }
  } else {
    box.append(el('strong', {}, `Unexpected error: ${e && e.message ? e.message : e}`));
  }
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
}

/** Runs a user action: its error is shown, never swallowed, never a blank page. */
function action(fn) {
  return async (event) => {
    if (event) event.preventDefault();
    clearError();
    try {
      await fn(event);
    } catch (e) {
      showError(e);
    }
  };
}

// ------------------------------------------------------------------------------------- sign in

let signIns = 0; // the newest sign-in wins: an older one still in flight stops at its next step

async function signIn(token) {
  const attempt = ++signIns;
  stopLive();
  state.client = new Client(token.trim());
  state.card = await state.client.card();
  if (attempt !== signIns) return;
  await reload(); // the first authenticated call: a refused token ends here, shown as an error
  if (attempt !== signIns) return;
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  $('sign-in').hidden = true;
  $('app').hidden = false;
  $('sign-out').hidden = false;
  $('who').textContent = `${state.card.card.name || ''} · ${state.card.historyPaging ? 'history paging' : 'historyLength'}`;
  startLive();
}

function signOut(clearMessage = true) {
  sessionStorage.removeItem(TOKEN_KEY);
  stopLive();
  closeSubscription();
  state.client = null;
  $('app').hidden = true;
  $('sign-in').hidden = false;
  $('sign-out').hidden = true;
  $('who').textContent = '';
  if (clearMessage) clearError();
}

// ------------------------------------------------------------------------------------ the list

function readFilters() {
  const since = $('filter-since').value;
  return {
    status: $('filter-status').value,
    contextId: $('filter-context').value.trim(),
    statusTimestampAfter: since ? new Date(since).toISOString() : '',
  };
}

async function reload() {
  state.filters = readFilters();
  const page = await state.client.listTasks({ ...state.filters, pageSize: PAGE_SIZE });
  state.tasks.clear();
  state.order = [];
  state.mark = null;
  addPage(page);
}

async function loadMore() {
  const page = await state.client.listTasks({ ...state.filters, pageSize: PAGE_SIZE, pageToken: state.nextPageToken });
  addPage(page);
}

function addPage(page) {
  for (const task of page.tasks || []) {
    if (state.tasks.has(task.id)) continue; // already shown: it changed and moved to the top
    state.tasks.set(task.id, task);
    state.order.push(task.id);
    noteTimestamp(task);
  }
  state.nextPageToken = page.nextPageToken || '';
  if (page.totalSize !== undefined) state.total = page.totalSize;
  renderList();
}

function noteTimestamp(task) {
  const ms = Date.parse(task.status && task.status.timestamp);
  if (!Number.isNaN(ms) && (state.mark === null || ms > state.mark)) state.mark = ms;
}

/**
 * Live updates, the catch-up walk of the seed in the browser: every second, list what changed
 * since the newest timestamp seen minus the card's skew (commit lag), and move it to the top.
 */
async function pollChanges() {
  const since = state.mark === null ? null : state.mark - state.card.skewMillis;
  const floor = state.filters.statusTimestampAfter ? Date.parse(state.filters.statusTimestampAfter) : null;
  const after = since === null ? floor : floor === null ? since : Math.max(since, floor);
  const page = await state.client.listTasks({
    status: state.filters.status, contextId: state.filters.contextId, pageSize: PAGE_SIZE,
    statusTimestampAfter: after === null ? '' : new Date(after).toISOString(),
  });
  const changed = [];
  let added = false;
  for (const task of page.tasks || []) {
    const known = state.tasks.get(task.id);
    if (known && known.status && task.status && known.status.timestamp === task.status.timestamp
        && known.status.state === task.status.state) continue;
    added = added || !known;
    changed.push(task);
  }
  if (changed.length === 0) return;
  // Newest first, as ListTasks orders them: the newest change ends up at the very top.
  for (const task of changed.reverse()) {
    state.tasks.set(task.id, task);
    state.order = [task.id, ...state.order.filter(id => id !== task.id)];
    noteTimestamp(task);
  }
  if (added) {
    const count = await state.client.listTasks({ ...state.filters, pageSize: 1 });
    state.total = count.totalSize;
  }
  renderList(new Set(changed.map(t => t.id)));
  if (state.selected && changed.some(t => t.id === state.selected) && !state.subscription) {
    await select(state.selected, false);
  }
}

function startLive() {
  stopLive();
  const tick = async () => {
    try {
      await pollChanges();
      $('live').textContent = '● live';
    } catch (e) {
      $('live').textContent = `○ not live: ${e.message}`;
      if (e instanceof A2AError && e.http === 401) {
        showError(e);
        return;
      }
    }
    if (state.client) state.live = setTimeout(tick, LIVE_EVERY_MS);
  };
  state.live = setTimeout(tick, LIVE_EVERY_MS);
}

function stopLive() {
  clearTimeout(state.live);
  state.live = null;
}

function renderList(changed = new Set()) {
  const rows = state.order.map(id => {
    const task = state.tasks.get(id);
    const row = el('tr', { className: [changed.has(id) ? 'changed' : '', id === state.selected ? 'selected' : ''].join(' ') },
      el('td', {}, el('code', {}, task.id)),
      el('td', {}, el('span', { className: `state ${task.status ? task.status.state : ''}` }, shortState(task.status && task.status.state))),
      el('td', {}, when(task.status && task.status.timestamp)),
      el('td', {}, el('code', {}, task.contextId || '')));
    row.dataset.taskId = id;
    row.addEventListener('click', action(() => select(id)));
    return row;
  });
  $('task-rows').replaceChildren(...rows);
  $('total').textContent = `${state.order.length} shown of ${state.total}`;
  $('total').dataset.total = state.total;
  $('load-more').hidden = !state.nextPageToken;
}

function shortState(state) {
  return (state || '').replace('TASK_STATE_', '');
}

function when(timestamp) {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? '' : new Date(ms).toLocaleString();
}

// ---------------------------------------------------------------------------------- the detail

async function select(id, fresh = true) {
  state.selected = id;
  const task = await state.client.getTask(id, state.card.historyPaging ? 0 : 20);
  renderDetail(task);
  renderList();
  if (fresh) {
    state.transcript = { direction: 'DIRECTION_NEWEST_FIRST', nextPageToken: '' };
    await loadTranscript(true, task);
    await loadPushConfigs();
    subscribe(task);
  }
}

function renderDetail(task) {
  $('detail').hidden = false;
  $('detail-id').textContent = task.id;
  $('detail-context').textContent = task.contextId || '';
  const status = task.status || {};
  $('detail-state').textContent = shortState(status.state);
  $('detail-state').className = `state ${status.state || ''}`;
  $('detail-time').textContent = when(status.timestamp);
  $('detail-message').textContent = status.message ? textOf(status.message) : '';
  $('cancel').disabled = isTerminal(status.state);
  $('artifacts').replaceChildren(...(task.artifacts || []).map(renderArtifact));
  if (state.tasks.has(task.id)) state.tasks.set(task.id, { ...state.tasks.get(task.id), status: task.status });
}

function renderArtifact(artifact) {
  return el('div', { className: 'artifact' },
    el('div', { className: 'small' }, `${artifact.name || artifact.artifactId}${artifact.description ? ' — ' + artifact.description : ''}`),
    ...(artifact.parts || []).map(renderPart));
}

/** A part as what it is: text as text, data as JSON, a file as its name, type and a download. */
function renderPart(part) {
  const type = part.mediaType ? ` (${part.mediaType})` : '';
  if (part.text !== undefined) return el('div', { className: 'text' }, part.text);
  if (part.data !== undefined) return el('pre', {}, JSON.stringify(part.data, null, 2));
  if (part.url !== undefined) {
    const safe = /^https?:\/\//i.test(part.url);
    return el('div', {}, 'file ', safe ? el('a', { href: part.url, rel: 'noopener noreferrer', target: '_blank' }, part.filename || part.url)
      : el('code', {}, part.url), type);
  }
  if (part.raw !== undefined) {
    const bytes = Uint8Array.from(atob(part.raw), c => c.charCodeAt(0));
    const link = el('a', { href: URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' })),
      download: part.filename || 'file' }, part.filename || 'file');
    return el('div', {}, 'file ', link, `${type}, ${bytes.length} bytes`);
  }
  return el('div', { className: 'small' }, '(empty part)');
}

function textOf(message) {
  return (message.parts || []).map(p => p.text !== undefined ? p.text : p.data !== undefined ? JSON.stringify(p.data) : `[${p.filename || 'file'}]`).join(' ');
}

function renderMessage(message, seq) {
  const role = message.role === 'ROLE_AGENT' ? 'agent' : 'user';
  return el('li', { value: seq || undefined }, el('span', { className: 'role' }, role), textOf(message));
}

/** The transcript: paged by the history extension when the card declares it, historyLength otherwise. */
async function loadTranscript(fresh, task) {
  const list = $('transcript');
  if (!state.card.historyPaging) {
    $('transcript-mode').textContent = '(the newest 20 messages: historyLength)';
    list.replaceChildren(...(task.history || []).map(m => renderMessage(m)));
    $('more-messages').hidden = true;
    return;
  }
  const { direction, nextPageToken } = state.transcript;
  const page = await state.client.listTaskMessages(state.selected, { direction, pageSize: 50, pageToken: fresh ? '' : nextPageToken });
  const items = (page.messages || []).map(m => renderMessage(m.message, Number(m.seq)));
  if (fresh) list.replaceChildren(...items); else list.append(...items);
  state.transcript.nextPageToken = page.nextPageToken || '';
  $('transcript-mode').textContent = direction === 'DIRECTION_OLDEST_FIRST' ? '(oldest first)' : '(newest first)';
  $('more-messages').hidden = !state.transcript.nextPageToken;
}

async function transcriptFrom(direction) {
  state.transcript = { direction, nextPageToken: '' };
  await loadTranscript(true, null);
}

/** The open task, live: its events as they come (SubscribeToTask) until it ends or waits. */
function subscribe(task) {
  closeSubscription();
  if (isTerminal(task.status && task.status.state)) return;
  const controller = new AbortController();
  state.subscription = controller;
  let shown = task;
  state.client.subscribe(task.id, (event) => {
    if (event.task) shown = event.task;
    if (event.statusUpdate) shown = { ...shown, status: event.statusUpdate.status };
    if (event.artifactUpdate) shown = { ...shown, artifacts: applyArtifact(shown.artifacts || [], event.artifactUpdate) };
    if (state.selected === task.id) renderDetail(shown);
  }, controller.signal).catch((e) => {
    if (e.name !== 'AbortError' && !(e instanceof A2AError && e.reason === 'UNSUPPORTED_OPERATION')) showError(e);
  }).finally(() => {
    if (state.subscription === controller) state.subscription = null;
  });
}

function closeSubscription() {
  if (state.subscription) state.subscription.abort();
  state.subscription = null;
}

/** The proto's rules: append adds parts to the artifact of that id; otherwise it replaces it. */
export function applyArtifact(artifacts, update) {
  const next = artifacts.filter(a => a.artifactId !== update.artifact.artifactId);
  const current = artifacts.find(a => a.artifactId === update.artifact.artifactId);
  const merged = update.append && current ? { ...current, parts: [...current.parts, ...update.artifact.parts] } : update.artifact;
  const index = artifacts.indexOf(current);
  if (index < 0) return [...next, merged];
  next.splice(index, 0, merged);
  return next;
}

async function cancel() {
  const task = await state.client.cancelTask(state.selected);
  renderDetail(task);
}

async function loadPushConfigs() {
  const answer = await state.client.listPushConfigs(state.selected);
  const taskId = state.selected;
  $('push-configs').replaceChildren(...(answer.configs || []).map(config => {
    const remove = el('button', { className: 'push-delete' }, 'Delete');
    remove.addEventListener('click', action(async () => {
      await state.client.deletePushConfig(taskId, config.id);
      await loadPushConfigs();
    }));
    return el('li', {}, el('code', {}, config.id), ' → ', config.url, ' ', remove);
  }));
}

async function addPushConfig() {
  await state.client.createPushConfig(state.selected, $('push-url').value.trim(), $('push-token').value.trim());
  $('push-url').value = '';
  $('push-token').value = '';
  await loadPushConfigs();
}

// -------------------------------------------------------------------------------- send a message

function messageId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('');
}

async function send() {
  const text = $('send-text').value;
  const taskId = $('send-task').value.trim();
  const message = { messageId: messageId(), role: 'ROLE_USER', parts: [{ text }] };
  if (taskId) message.taskId = taskId;
  const log = $('send-events');
  log.replaceChildren();
  let id = taskId;
  await state.client.streamMessage(message, (event) => {
    if (event.task) id = event.task.id;
    if (event.statusUpdate) id = event.statusUpdate.taskId;
    log.append(el('li', {}, describe(event)));
    // A message to an existing task streams from the task as it is: what the agent wrote before
    // that snapshot arrives in it, not as updates, so its artifacts are shown here too.
    if (event.task) {
      for (const artifact of event.task.artifacts || []) {
        log.append(el('li', {}, `artifact ${artifact.name || artifact.artifactId} ${textOf(artifact)} (in the task)`));
      }
    }
  });
  log.append(el('li', { className: 'closed' }, 'stream closed'));
  $('send-text').value = '';
  if (id) {
    $('send-task').value = id;
    await select(id);
  }
}

function describe(event) {
  if (event.task) return `task ${event.task.id}: ${shortState(event.task.status && event.task.status.state)}`;
  if (event.message) return `message: ${textOf(event.message)}`;
  if (event.statusUpdate) {
    const status = event.statusUpdate.status || {};
    return `status ${shortState(status.state)}${status.message ? ': ' + textOf(status.message) : ''}`;
  }
  if (event.artifactUpdate) {
    const u = event.artifactUpdate;
    return `artifact ${u.artifact.name || u.artifact.artifactId}${u.append ? ' +' : ' '}${textOf(u.artifact)}${u.lastChunk ? ' (last chunk)' : ''}`;
  }
  return JSON.stringify(event);
}

// --------------------------------------------------------------------------------------- wiring

function wire() {
  $('filter-status').append(...STATES.map(s => el('option', { value: s }, shortState(s))));
  $('sign-in-form').addEventListener('submit', action(() => signIn($('token').value)));
  $('sign-out').addEventListener('click', () => signOut());
  $('filters').addEventListener('submit', action(reload));
  $('load-more').addEventListener('click', action(loadMore));
  $('send-form').addEventListener('submit', action(send));
  $('cancel').addEventListener('click', action(cancel));
  $('continue').addEventListener('click', () => { $('send-task').value = state.selected; $('send-text').focus(); });
  $('newest').addEventListener('click', action(() => transcriptFrom('DIRECTION_NEWEST_FIRST')));
  $('oldest').addEventListener('click', action(() => transcriptFrom('DIRECTION_OLDEST_FIRST')));
  $('more-messages').addEventListener('click', action(() => loadTranscript(false, null)));
  $('push-form').addEventListener('submit', action(addPushConfig));
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) action(() => signIn(token))();
}

wire();
