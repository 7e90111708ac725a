// A small client of the service's public HTTP+JSON binding, for the console. Nothing here is
// private to the console: every call is one a browser app on an allowed origin could make.

/** The service root: the console is served at <root>/console/, the binding at <root>/. */
export const ROOT = new URL('..', document.baseURI);

const HISTORY_PAGING = 'https://a2a-tasks.dev/extensions/history-paging/v1';
const CATCH_UP = 'https://a2a-tasks.dev/extensions/catch-up/v1';

/** An A2A error answer: the HTTP status, the google.rpc status name, the reason, the retry hint. */
export class A2AError extends Error {
  constructor(http, body, retryAfter) {
    const error = body && body.error ? body.error : {};
    super(error.message || `HTTP ${http}`);
    this.http = http;
    this.status = error.status || '';
    const info = (error.details || []).find(d => String(d['@type'] || '').endsWith('google.rpc.ErrorInfo'));
    this.reason = info ? info.reason : '';
    this.retryAfter = retryAfter; // seconds, from Retry-After (429, 503); null when none
  }
}

export class Client {
  constructor(token) {
    this.token = token;
  }

  headers(extra = {}) {
    return { 'Authorization': `Bearer ${this.token}`, 'A2A-Version': '1.0', ...extra };
  }

  async call(method, path, { query, body, headers } = {}) {
    const url = resolve(path);
    for (const [k, v] of Object.entries(query || {})) {
      if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, v);
    }
    const init = { method, headers: this.headers(headers) };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch (e) {
      throw new A2AError(0, { error: { message: `The service could not be reached (${e.message})` } }, null);
    }
    return decode(response);
  }

  /** The public Agent Card, and what it declares that the console uses. */
  async card() {
    const response = await fetch(resolve('.well-known/agent-card.json'));
    const card = await decode(response);
    const extensions = (card.capabilities && card.capabilities.extensions) || [];
    const catchUp = extensions.find(e => e.uri === CATCH_UP);
    return {
      card,
      historyPaging: extensions.some(e => e.uri === HISTORY_PAGING),
      skewMillis: catchUp && catchUp.params ? Number(catchUp.params.skewMillis) : 2000,
    };
  }

  listTasks(filters) {
    return this.call('GET', 'tasks', { query: filters });
  }

  getTask(id, historyLength) {
    return this.call('GET', `tasks/${encodeURIComponent(id)}`, { query: { historyLength } });
  }

  cancelTask(id) {
    return this.call('POST', `tasks/${encodeURIComponent(id)}:cancel`, { body: {} });
  }

  /** One page of a transcript through the history-paging extension. */
  listTaskMessages(id, query) {
    return this.call('GET', `tasks/${encodeURIComponent(id)}/messages`, { query, headers: { 'A2A-Extensions': HISTORY_PAGING } });
  }

  listPushConfigs(taskId) {
    return this.call('GET', `tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`);
  }

  createPushConfig(taskId, url, token) {
    const config = { taskId, url };
    if (token) config.token = token;
    return this.call('POST', `tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`, { body: config });
  }

  deletePushConfig(taskId, id) {
    return this.call('DELETE', `tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs/${encodeURIComponent(id)}`);
  }

  /** SendStreamingMessage: calls onEvent with each StreamResponse; resolves when the stream ends. */
  streamMessage(message, onEvent, signal) {
    return this.stream('POST', 'message:stream', { message }, onEvent, signal);
  }

  /** SubscribeToTask: the task's snapshot, then its events until it ends or asks for input. */
  subscribe(id, onEvent, signal) {
    return this.stream('GET', `tasks/${encodeURIComponent(id)}:subscribe`, undefined, onEvent, signal);
  }

  async stream(method, path, body, onEvent, signal) {
    const init = { method, headers: this.headers({ 'Accept': 'text/event-stream' }), signal };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(resolve(path), init);
    if (!response.ok || !(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      await decode(response); // throws the refusal as an A2AError
      return;
    }
    // Server-Sent Events read by hand: EventSource cannot send an Authorization header.
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5).trimStart()).join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        if (event.error) throw new A2AError(200, event, null); // an error after the first event
        onEvent(event);
      }
    }
  }
}

/** A binding path against the root; "./" first, or "message:stream" would read as a URL of scheme "message". */
function resolve(path) {
  return new URL(`./${path}`, ROOT);
}

async function decode(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : {};
  } catch (e) {
    body = { error: { message: `HTTP ${response.status}: the answer is not JSON` } };
  }
  if (!response.ok) {
    const retry = response.headers.get('Retry-After');
    throw new A2AError(response.status, body, retry === null ? null : Number(retry));
  }
  return body;
}

/** The states a task can be in, as ListTasks filters them. */
export const STATES = ['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'AUTH_REQUIRED', 'COMPLETED', 'FAILED', 'CANCELED', 'REJECTED']
  .map(s => `TASK_STATE_${s}`);

export function isTerminal(state) {
  return ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'].includes(state);
}
