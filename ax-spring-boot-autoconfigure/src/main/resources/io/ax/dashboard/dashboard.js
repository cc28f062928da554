/*
 * The AX dashboard: reads the `ax` Actuator endpoint with the browser's session and redraws the current page every
 * few seconds. Every value comes from the server and may hold attacker-chosen text (task names, payloads, error
 * messages), so the DOM is built with createElement and text nodes only: no innerHTML, no HTML strings.
 */
(function () {
  'use strict';

  const POLL_MS = 3000;
  const PAGE_SIZE = 20;
  const ERROR_CHARS = 400;
  const STATES = ['CREATED', 'SCHEDULED', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'RETRYING',
    'DEAD', 'CANCELLED', 'SKIPPED'];
  const FINAL = ['SUCCESS', 'DEAD', 'CANCELLED', 'SKIPPED'];
  const SVG = 'http://www.w3.org/2000/svg';

  let session = null;
  let view = null; // the page on screen: {route, refresh(), region}
  let generation = 0; // bumped on every navigation: answers for an older page are dropped
  let busy = false; // an action is on its way: no redraw under the operator's cursor
  let lastDrawn = '';

  // ---- DOM helpers: text only ------------------------------------------------------------------------------

  /** An element; attrs are set as attributes (on* keys as listeners), children as text nodes or elements. */
  function h(tag, attrs, ...children) {
    return build(document.createElement(tag), attrs, children);
  }

  function s(tag, attrs, ...children) {
    return build(document.createElementNS(SVG, tag), attrs, children);
  }

  function build(el, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) {
        continue;
      }
      if (key.startsWith('on') && typeof value === 'function') {
        el.addEventListener(key.substring(2), value);
      } else {
        el.setAttribute(key, value === true ? '' : String(value));
      }
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) {
        continue;
      }
      if (Array.isArray(child)) {
        append(el, child);
      } else if (child instanceof Node) {
        el.appendChild(child);
      } else {
        el.appendChild(document.createTextNode(String(child)));
      }
    }
  }

  function time(iso) {
    if (!iso) {
      return '—';
    }
    return String(iso).replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function relative(iso) {
    if (!iso) {
      return '';
    }
    const seconds = Math.round((Date.parse(iso) - Date.now()) / 1000);
    const size = Math.abs(seconds);
    const amount = size < 120 ? size + ' s' : size < 7200 ? Math.round(size / 60) + ' min'
      : size < 172800 ? Math.round(size / 3600) + ' h' : Math.round(size / 86400) + ' d';
    return seconds >= 0 ? 'in ' + amount : amount + ' ago';
  }

  function millis(ms) {
    if (ms === null || ms === undefined) {
      return '—';
    }
    return ms < 1000 ? ms + ' ms' : ms < 120000 ? (ms / 1000).toFixed(1) + ' s' : Math.round(ms / 60000) + ' min';
  }

  function bounded(text, max) {
    if (text === null || text === undefined) {
      return '';
    }
    const t = String(text);
    return t.length > max ? t.substring(0, max) + '…' : t;
  }

  function stateBadge(state) {
    return h('span', {class: 'state ' + state, 'data-state': state}, state);
  }

  function instanceLink(id) {
    return h('a', {href: '#/instance/' + encodeURIComponent(id), class: 'mono', 'data-instance': id}, id);
  }

  function card(label, value, key) {
    return h('div', {class: 'card', 'data-card': key}, h('div', {class: 'label'}, label),
      h('div', {class: 'value'}, value));
  }

  function table(headers, rows) {
    // each cell names its column: on a narrow screen a row is drawn as a card, a label before each value
    for (const row of rows) {
      Array.from(row.children).forEach((cell, i) => {
        if (headers[i]) {
          cell.setAttribute('data-label', headers[i]);
        }
      });
    }
    return h('table', {}, h('thead', {}, h('tr', {}, headers.map(x => h('th', {}, x)))), h('tbody', {}, rows));
  }

  function notice(text, kind) {
    const el = document.getElementById('notice');
    if (!text) {
      el.hidden = true;
      el.replaceChildren();
      return;
    }
    el.className = 'notice' + (kind ? ' ' + kind : '');
    el.replaceChildren(document.createTextNode(text));
    el.hidden = false;
  }

  // ---- talking to the endpoint ------------------------------------------------------------------------------

  function csrfToken() {
    for (const part of document.cookie.split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === 'XSRF-TOKEN') {
        return decodeURIComponent(value.join('='));
      }
    }
    return null;
  }

  async function answer(response) {
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      body = null; // a login page or a proxy's error page
    }
    if (!response.ok) {
      const why = body && body.message ? body.message : response.statusText;
      const error = new Error(response.status + ' ' + why);
      error.status = response.status;
      throw error;
    }
    if (body === null && text) {
      throw new Error('The server did not answer with JSON (signed out?)');
    }
    return body;
  }

  // X-Requested-With keeps Spring Security's HTTP Basic from asking the browser for a password on a 401
  const READ_HEADERS = {'Accept': 'application/json', 'X-Requested-With': 'XMLHttpRequest'};

  async function read(path) {
    return answer(await fetch(session.endpoint + path, {credentials: 'same-origin', headers: READ_HEADERS}));
  }

  async function write(method, path, body) {
    const headers = Object.assign({}, READ_HEADERS);
    const token = csrfToken();
    if (token) {
      headers['X-XSRF-TOKEN'] = token;
    }
    const request = {method: method, credentials: 'same-origin', headers};
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      request.body = JSON.stringify(body);
    }
    return answer(await fetch(session.endpoint + path, request));
  }

  /** A write button: disabled while its request runs; the page redraws when it is done. */
  function actionButton(label, action, method, path, done, danger) {
    return h('button', {
      type: 'button', 'data-action': action, class: danger ? 'danger' : null,
      onclick: async (event) => {
        const button = event.currentTarget;
        button.disabled = true;
        busy = true;
        try {
          const result = await write(method, path);
          notice(done(result));
        } catch (e) {
          notice(label + ' failed: ' + e.message, 'error');
        } finally {
          busy = false;
          lastDrawn = '';
          refreshNow();
        }
      }
    }, label);
  }

  function seg(text) {
    return encodeURIComponent(text);
  }

  // ---- pages ------------------------------------------------------------------------------------------------

  const pages = {
    'overview': overviewPage,
    'tasks': tasksPage,
    'task': taskPage,
    'instances': instancesPage,
    'instance': instancePage,
    'dead-letters': deadLettersPage,
    'workflows': workflowsPage,
    'nodes': nodesPage
  };

  /** The window an activity chart shows: the last hour (the default) or day, from the page's ?window=. */
  function windowOf(params) {
    return params && params.get('window') === 'day' ? 'day' : 'hour';
  }

  /** Links between the two windows of a page's charts; the current one is marked. */
  function windowSwitch(base, current) {
    const link = (w, label) => h('a', {href: base + (base.includes('?') ? '&' : '?') + 'window=' + w,
      'data-window': w, class: w === current ? 'current' : null}, label);
    return h('div', {class: 'window-switch'}, link('hour', 'Last hour'), ' · ', link('day', 'Last day'));
  }

  // instances waiting on this node for a permit of a cluster-wide limit, the busiest limits first
  function waitingForPermits(node) {
    const byLimit = Object.entries(node.waitingForPermits || {}).sort((a, b) => b[1] - a[1]);
    const total = byLimit.reduce((a, [, n]) => a + n, 0);
    return total === 0 ? '0' : total + ' (' + byLimit.slice(0, 3).map(([k, n]) => k + ': ' + n).join(', ')
      + (byLimit.length > 3 ? ', ...' : '') + ')';
  }

  function overviewPage(params) {
    const w = windowOf(params);
    return {
      title: 'Overview',
      async load() {
        const [node, overview] = await Promise.all([read(''), read('/overview?window=' + w)]);
        const backlog = Object.values(node.backlog || {}).reduce((a, b) => a + b, 0);
        // per priority, highest first, when more than one priority waits: which work a saturated pool starts first
        const byPriority = Object.entries(node.backlogByPriority || {}).sort((a, b) => Number(b[0]) - Number(a[0]));
        const priorities = byPriority.length > 1
          ? '; by priority ' + byPriority.map(([p, n]) => p + ': ' + n).join(', ') : '';
        return h('div', {},
          h('div', {class: 'cards'},
            card('Node', node.node, 'node'),
            card('Role', node.role, 'role'),
            card('Leader', node.leader || 'none', 'leader'),
            card('Store', node.store, 'store'),
            card('Live nodes', (node.liveNodes || []).length, 'nodes'),
            card('Tasks', node.tasks, 'tasks'),
            card('Backlog', backlog + (backlog ? ' (oldest ' + millis(node.oldestBacklogAgeMillis) + priorities + ')'
              : ''), 'backlog'),
            card('Due in the store', node.dueInStore == null ? 'not read yet' : node.dueInStore
              + (node.dueInStore ? ' (oldest ' + millis(node.oldestDueInStoreMillis) + ')' : ''), 'due-in-store'),
            // how far behind the oldest due fire is: past capacity it grows with the excess, and shrinks once the
            // cluster catches up
            card('Lag (this node / cluster)', millis(node.lagMillis) + ' / ' + millis(node.clusterLagMillis), 'lag'),
            card('Executing', node.executing, 'executing'),
            card('Waiting for permits', waitingForPermits(node), 'permits'),
            card('Dead letters', node.deadLetters, 'dead-letters'),
            card('Fires in the last full minute', overview.firesLastMinute, 'fires'),
            card('Lateness p50 / p99 (' + w + ')',
              millis(overview.latenessP50Millis) + ' / ' + millis(overview.latenessP99Millis), 'lateness'),
            card('Clock', node.clock.status + (node.clock.jumps ? ', ' + node.clock.jumps + ' jump(s)' : ''),
              'clock')),
          activityCharts(overview, '#/overview'));
      }
    };
  }

  /** The charts of an overview answer (all tasks or one), with the switch between its windows. */
  function activityCharts(overview, base) {
    const per = overview.bucketMinutes === 1 ? 'minute' : overview.bucketMinutes + ' minutes';
    const span = overview.window === 'day' ? 'last day' : 'last hour';
    const scope = overview.scope === 'cluster' ? 'all nodes'
      : 'this node only' + (overview.unavailable ? ' (the store did not answer: ' + overview.unavailable + ')' : '');
    const b = overview.buckets;
    return h('div', {class: 'activity', 'data-window': overview.window, 'data-scope': overview.scope},
      h('div', {class: 'chart-head'}, windowSwitch(base, overview.window),
        h('span', {class: overview.scope === 'cluster' ? 'muted' : 'muted warn', 'data-scope-note': ''}, scope)),
      h('div', {class: 'charts'},
        h('div', {class: 'chart', 'data-chart': 'fires'},
          h('div', {}, 'Fires per ' + per + ', ' + span), firesChart(b, overview.window)),
        h('div', {class: 'chart', 'data-chart': 'outcomes'},
          h('div', {}, 'Outcomes per ' + per + ', ' + span + ': ',
            OUTCOMES.map((o, i) => [i ? ', ' : '', h('span', {class: 'legend-' + o.key}, o.label)])),
          outcomesChart(b, overview.window)),
        h('div', {class: 'chart', 'data-chart': 'lateness'},
          h('div', {}, 'Lateness per ' + per + ', ' + span + ': ',
            h('span', {class: 'legend-p50'}, 'p50'), ' and ', h('span', {class: 'legend-p99'}, 'p99')),
          latenessChart(b, overview.window))));
  }

  const OUTCOMES = [
    {key: 'successes', label: 'succeeded'},
    {key: 'failures', label: 'failed'},
    {key: 'timeouts', label: 'timed out'},
    {key: 'deadLetters', label: 'dead'}
  ];

  const W = 600;
  const H = 160;
  const PAD = 24;

  function frame(maxLabel, window, children) {
    return s('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', preserveAspectRatio: 'none'},
      s('line', {class: 'axis', x1: PAD, y1: H - PAD, x2: W, y2: H - PAD}),
      s('text', {x: 0, y: 12}, maxLabel),
      s('text', {x: PAD, y: H - 6}, window === 'day' ? '24 h ago' : '60 min ago'),
      s('text', {x: W - 24, y: H - 6}, 'now'),
      children);
  }

  function xOf(i, n) {
    return PAD + (W - PAD) * i / n;
  }

  function firesChart(buckets, window) {
    const max = Math.max(1, ...buckets.map(m => m.fires));
    const width = (W - PAD) / buckets.length;
    const bars = buckets.map((m, i) => {
      const height = (H - 2 * PAD) * m.fires / max;
      return s('rect', {class: 'bar', x: xOf(i, buckets.length), y: H - PAD - height,
        width: Math.max(1, width - 1), height: height},
      s('title', {}, time(m.start) + ': ' + m.fires + ' fire(s)'));
    });
    return frame(String(max), window, bars);
  }

  /** Each bucket's outcomes stacked, succeeded at the bottom; its tooltip gives every count. */
  function outcomesChart(buckets, window) {
    const total = m => OUTCOMES.reduce((sum, o) => sum + m[o.key], 0);
    const max = Math.max(1, ...buckets.map(total));
    const width = (W - PAD) / buckets.length;
    const bars = buckets.flatMap((m, i) => {
      let top = H - PAD;
      const tip = time(m.start) + ': ' + OUTCOMES.map(o => m[o.key] + ' ' + o.label).join(', ');
      return OUTCOMES.filter(o => m[o.key] > 0).map(o => {
        const height = (H - 2 * PAD) * m[o.key] / max;
        top -= height;
        return s('rect', {class: 'stack ' + o.key, x: xOf(i, buckets.length), y: top,
          width: Math.max(1, width - 1), height: height, 'data-outcome': o.key, 'data-count': m[o.key]},
        s('title', {}, tip));
      });
    });
    return frame(String(max), window, bars);
  }

  function latenessChart(buckets, window) {
    const values = buckets.flatMap(m => [m.latenessP50Millis, m.latenessP99Millis]).filter(v => v !== null);
    const max = Math.max(1, ...values);
    const line = (key, cls) => {
      const points = [];
      buckets.forEach((m, i) => {
        if (m[key] !== null) {
          points.push(xOf(i + 0.5, buckets.length).toFixed(1) + ',' +
            (H - PAD - (H - 2 * PAD) * m[key] / max).toFixed(1));
        }
      });
      // a dot per bucket, so that a single bucket with fires shows too; a line joins them
      return [s('polyline', {class: cls, points: points.join(' ')}),
        points.map(p => s('circle', {class: cls + ' dot', cx: p.split(',')[0], cy: p.split(',')[1], r: 2.5}))];
    };
    return frame(millis(max), window, [line('latenessP50Millis', 'p50'), line('latenessP99Millis', 'p99')]);
  }

  function tasksPage() {
    return {
      title: 'Tasks',
      async load() {
        const tasks = (await read('/tasks')).tasks;
        const rows = tasks.map(t => {
          // the last that ended, not the pending next fire: a task that just died must not look fine
          const last = (t.lastInstances || []).find(i => FINAL.includes(i.state));
          const next = (t.nextFireTimes || []).slice(0, 3);
          return h('tr', {'data-task': t.name},
            h('td', {class: 'name'}, h('a', {href: '#/task/' + seg(t.name), 'data-task-link': t.name}, t.name),
              t.adoptedFrom ? [' ', h('span', {class: 'state adopted', 'data-adopted': 'true', title: t.adoptedFrom},
                'adopted')] : null),
            h('td', {title: t.trigger}, t.triggerInWords || t.trigger),
            h('td', {}, t.group),
            h('td', {class: 'paused'}, t.paused
              ? h('span', {class: 'state paused', 'data-paused': 'true'}, 'paused')
              : h('span', {class: 'state active', 'data-paused': 'false'}, 'active')),
            h('td', {class: 'next'}, next.length
              ? next.map(n => h('div', {title: time(n)}, relative(n))) : h('span', {class: 'muted'}, '—')),
            h('td', {class: 'last'}, last
              ? [stateBadge(last.state), ' ', h('a', {href: '#/instance/' + seg(last.id)}, time(last.scheduledTime)),
                last.durationMillis !== null && last.durationMillis !== undefined
                  ? h('span', {class: 'muted'}, ' in ' + millis(last.durationMillis)) : null]
              : h('span', {class: 'muted'}, 'none yet')),
            h('td', {class: 'num', 'data-rate': successRate(t), 'data-outcomes': t.outcomesScope},
              successRate(t), h('div', {class: 'muted'}, t.successes + ' / ' + t.failures + ' / ' + t.deadLetters)),
            h('td', {class: 'actions'}, session.canWrite ? [
              t.paused
                ? actionButton('Resume', 'resume', 'POST', '/tasks/' + seg(t.name) + '/resume',
                  () => 'Task ' + t.name + ' resumed')
                : actionButton('Pause', 'pause', 'POST', '/tasks/' + seg(t.name) + '/pause',
                  () => 'Task ' + t.name + ' paused'),
              actionButton('Trigger', 'trigger', 'POST', '/tasks/' + seg(t.name) + '/trigger',
                r => 'Task ' + t.name + ' triggered: instance ' + r.instanceId)
            ] : null));
        });
        const list = table(['Task', 'Trigger', 'Group', 'State', 'Next fires', 'Last ended',
          'Success rate, OK / failed / dead (' + outcomesSpan(tasks[0]) + ')', session.canWrite ? 'Actions' : ''],
          rows);
        const unavailable = tasks.length ? tasks[0].outcomesUnavailable : null;
        return unavailable ? h('div', {}, outcomesNote(unavailable), list) : list;
      }
    };
  }

  /** Attempts that succeeded of those that ended (see outcomesSpan), in per cent; a dash before any ended. */
  function successRate(t) {
    const ended = t.successes + t.failures;
    return ended ? Math.floor(100 * t.successes / ended) + ' %' : '—';
  }

  /** Whose attempts a task's success rate counts: the cluster's last day, or this node's when the store cannot say. */
  function outcomesSpan(t) {
    return !t || t.outcomesScope === 'cluster' ? 'last 24 h, all nodes' : 'this node';
  }

  function outcomesNote(unavailable) {
    return h('p', {class: 'muted warn', 'data-outcomes-note': ''},
      'Success rates are this node\'s since it started: the store did not answer (' + unavailable + ')');
  }

  /**
   * One task: what it is and its newest instances (redrawn every poll), and, for a user who may act, a trigger with
   * the parameters the task declares and a replay of all its dead letters (drawn once, so that typing survives the
   * polls).
   */
  function taskPage(params, name) {
    const w = windowOf(params);
    const head = h('div', {id: 'task-actions'});
    if (session.canWrite) {
      read('/tasks/' + seg(name)).then(t => head.replaceChildren(triggerForm(t), replayAllButton(t)))
        .catch(e => notice('Could not read task ' + name + ': ' + e.message, 'error'));
    }
    return {
      title: 'Task',
      head,
      async load() {
        const [t, overview] = await Promise.all([read('/tasks/' + seg(name)),
          read('/overview?task=' + seg(name) + '&window=' + w)]);
        const rows = (t.lastInstances || []).map(i => h('tr', {'data-instance-row': i.id, 'data-state': i.state},
          h('td', {}, instanceLink(i.id)),
          h('td', {}, stateBadge(i.state)),
          h('td', {}, i.attempt),
          h('td', {}, time(i.scheduledTime)),
          h('td', {}, millis(i.durationMillis))));
        return h('div', {'data-task-detail': t.name},
          h('dl', {class: 'facts'},
            h('dt', {}, 'Trigger'), h('dd', {title: t.trigger}, t.triggerInWords || t.trigger),
            t.adoptedFrom ? [h('dt', {}, 'Adopted from'), h('dd', {'data-adopted-from': t.adoptedFrom}, t.adoptedFrom)]
              : null,
            h('dt', {}, 'Group'), h('dd', {}, t.group + (t.priority ? ', priority ' + t.priority : '')),
            h('dt', {}, 'Transactional'), h('dd', {}, t.transactional
              ? 'yes: its database writes commit with its success' : 'no'),
            h('dt', {}, 'State'), h('dd', {}, t.paused ? 'paused' : 'active'),
            h('dt', {}, 'Next fires'), h('dd', {}, (t.nextFireTimes || []).length
              ? t.nextFireTimes.map(n => h('div', {}, time(n) + ' (' + relative(n) + ')')) : '—'),
            h('dt', {}, 'Success rate'), h('dd', {'data-outcomes': t.outcomesScope}, successRate(t) + ' ('
              + t.successes + ' OK, ' + t.failures + ' failed, ' + t.deadLetters + ' dead; ' + outcomesSpan(t) + ')',
              t.outcomesUnavailable ? outcomesNote(t.outcomesUnavailable) : null),
            h('dt', {}, 'Parameters'), h('dd', {class: 'mono'}, Object.keys(t.params || {}).length
              ? Object.entries(t.params).map(([k, v]) => h('div', {}, k + ' = ' + v)) : '—')),
          h('h2', {}, 'Activity'),
          activityCharts(overview, '#/task/' + seg(t.name)),
          h('h2', {}, 'Newest instances'),
          rows.length ? table(['Instance', 'State', 'Attempt', 'Scheduled', 'Took'], rows)
            : h('p', {class: 'muted'}, 'none yet'),
          h('p', {}, h('a', {href: '#/instances?task=' + seg(t.name)}, 'Search all instances of ' + t.name)));
      }
    };
  }

  /** A form of the task's parameters, each filled with its value; a secret one stays as it is unless typed. */
  function triggerForm(t) {
    const fields = Object.entries(t.params || {}).map(([k, v]) => {
      const secret = v === '******';
      return h('label', {}, h('span', {class: 'mono'}, k),
        h('input', {name: k, value: secret ? '' : v, 'data-param': k, 'data-secret': String(secret),
          placeholder: secret ? 'hidden: left as it is unless you type one' : ''}));
    });
    const form = h('form', {id: 'trigger-form', 'data-task': t.name}, h('h2', {}, 'Trigger now'), fields,
      h('button', {type: 'submit', 'data-action': 'trigger-with-params'},
        fields.length ? 'Trigger with these parameters' : 'Trigger now'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const pairs = [];
      for (const input of form.querySelectorAll('input[data-param]')) {
        if (input.dataset.secret === 'true' && !input.value) {
          continue; // the task's own value
        }
        pairs.push(encodeURIComponent(input.name) + '=' + encodeURIComponent(input.value));
      }
      const button = form.querySelector('button');
      button.disabled = true;
      try {
        const r = await write('POST', '/tasks/' + seg(t.name), {params: pairs.join('&')});
        notice('Task ' + t.name + ' triggered: instance ' + r.instanceId);
      } catch (e) {
        notice('Trigger failed: ' + e.message, 'error');
      } finally {
        button.disabled = false;
        lastDrawn = '';
        refreshNow();
      }
    });
    return form;
  }

  /** Replays every dead letter of the task, after the user confirmed the count. */
  function replayAllButton(t) {
    return h('button', {
      type: 'button', 'data-action': 'replay-all', class: 'danger',
      onclick: async (event) => {
        const button = event.currentTarget;
        const letters = await deadLettersOf(t.name);
        if (!letters) {
          notice('Task ' + t.name + ' has no dead letter to replay.');
          return;
        }
        if (!window.confirm('Replay ' + letters + ' dead letter(s) of ' + t.name + '?')) {
          return;
        }
        button.disabled = true;
        try {
          const r = await write('POST', '/tasks/' + seg(t.name) + '/replay-dead-letters');
          const refused = Object.keys(r.refused || {}).length;
          notice('Replayed ' + r.replayed.length + ' dead letter(s) of ' + t.name
            + (refused ? '; ' + refused + ' refused (no longer dead)' : '') + (r.more ? '; more are left' : ''));
        } catch (e) {
          notice('Replay failed: ' + e.message, 'error');
        } finally {
          button.disabled = false;
          lastDrawn = '';
          refreshNow();
        }
      }
    }, 'Replay all dead letters…');
  }

  /** How many dead letters the task has (read page by page). */
  async function deadLettersOf(task) {
    let count = 0;
    for (let page = 0; ; page++) {
      const r = await read('/dead-letters?page=' + page + '&size=200');
      count += r.deadLetters.filter(d => d.task === task).length;
      if ((page + 1) * 200 >= r.total) {
        return count;
      }
    }
  }

  function toIso(local) {
    return local ? new Date(local).toISOString() : '';
  }

  function instancesPage(params) {
    const page = Math.max(0, parseInt(params.get('page') || '0', 10) || 0);
    const form = h('form', {class: 'search', id: 'search'});
    const taskInput = h('input', {name: 'task', type: 'text', list: 'task-names', value: params.get('task') || '',
      placeholder: 'any task'});
    const stateSelect = h('select', {name: 'state'}, h('option', {value: ''}, 'any state'),
      STATES.map(st => h('option', {value: st, selected: params.get('state') === st}, st)));
    const fromInput = h('input', {name: 'from', type: 'datetime-local', step: 1});
    const toInput = h('input', {name: 'to', type: 'datetime-local', step: 1});
    const taskNames = h('datalist', {id: 'task-names'});
    append(form, [
      h('label', {}, 'Task', taskInput, taskNames),
      h('label', {}, 'State', stateSelect),
      h('label', {}, 'Scheduled from (your time)', fromInput),
      h('label', {}, 'to', toInput),
      h('button', {type: 'submit', 'data-action': 'search'}, 'Search')]);
    setLocal(fromInput, params.get('from'));
    setLocal(toInput, params.get('to'));
    form.addEventListener('submit', event => {
      event.preventDefault();
      const q = new URLSearchParams();
      if (taskInput.value.trim()) {
        q.set('task', taskInput.value.trim());
      }
      if (stateSelect.value) {
        q.set('state', stateSelect.value);
      }
      if (fromInput.value) {
        q.set('from', toIso(fromInput.value));
      }
      if (toInput.value) {
        q.set('to', toIso(toInput.value));
      }
      q.set('page', '0');
      location.hash = '#/instances?' + q.toString();
    });
    read('/tasks').then(r => taskNames.replaceChildren(...r.tasks.map(t => h('option', {value: t.name}))))
      .catch(() => {});
    return {
      title: 'Instances',
      head: form,
      async load() {
        const q = new URLSearchParams();
        for (const key of ['task', 'state', 'from', 'to']) {
          if (params.get(key)) {
            q.set(key, params.get(key));
          }
        }
        q.set('page', String(page));
        q.set('size', String(PAGE_SIZE));
        const result = await read('/instances?' + q.toString());
        const instances = result.instances || [];
        const rows = instances.map(i => h('tr', {'data-instance-row': i.id, 'data-state': i.state},
          h('td', {}, instanceLink(i.id)),
          h('td', {}, i.task),
          h('td', {}, stateBadge(i.state)),
          h('td', {class: 'num'}, i.attempt),
          h('td', {}, time(i.scheduledTime)),
          h('td', {}, time(i.updatedAt))));
        return h('div', {},
          instances.length ? table(['Instance', 'Task', 'State', 'Attempt', 'Scheduled', 'Updated'], rows)
            : h('p', {class: 'muted', 'data-empty': 'true'}, 'No instance matches.'),
          pager('#/instances', params, page, result.more));
      }
    };
  }

  function setLocal(input, iso) {
    if (!iso) {
      return;
    }
    const d = new Date(iso);
    if (isNaN(d.getTime())) {
      return;
    }
    const local = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().substring(0, 19);
    input.value = local;
  }

  function pager(base, params, page, more, total) {
    const to = p => {
      const q = new URLSearchParams(params);
      q.set('page', String(p));
      return base + '?' + q.toString();
    };
    return h('div', {class: 'pager'},
      page > 0 ? h('a', {href: to(page - 1), 'data-page-link': 'previous'}, '‹ previous') : null,
      h('span', {class: 'muted'}, 'page ' + (page + 1) +
        (total !== undefined && total !== null ? ' of ' + Math.max(1, Math.ceil(total / PAGE_SIZE)) : '')),
      more ? h('a', {href: to(page + 1), 'data-page-link': 'next'}, 'next ›') : null);
  }

  function instancePage(params, id) {
    return {
      title: 'Instance',
      async load() {
        const i = await read('/instances/' + seg(id));
        const actions = [];
        if (session.canWrite && (i.state === 'SCHEDULED' || i.state === 'RETRYING')) {
          actions.push(actionButton('Cancel', 'cancel', 'POST', '/instances/' + seg(i.id) + '/cancel',
            r => 'Instance ' + r.id + ' cancelled', true));
        }
        if (session.canWrite && i.state === 'DEAD') {
          actions.push(actionButton('Replay', 'replay', 'POST', '/instances/' + seg(i.id) + '/replay',
            r => 'Instance ' + r.id + ' replayed: now ' + r.state));
        }
        return h('div', {'data-instance-detail': i.id},
          h('dl', {class: 'facts'},
            h('dt', {}, 'Id'), h('dd', {class: 'mono'}, i.id),
            h('dt', {}, 'Task'), h('dd', {}, h('a', {href: '#/instances?task=' + seg(i.task)}, i.task)),
            h('dt', {}, 'State'), h('dd', {id: 'instance-state'}, stateBadge(i.state)),
            h('dt', {}, 'Attempt'), h('dd', {}, i.attempt),
            h('dt', {}, 'Scheduled'), h('dd', {}, time(i.scheduledTime)),
            h('dt', {}, 'Updated'), h('dd', {}, time(i.updatedAt) + ' by ' + i.node),
            h('dt', {}, 'Origin'), h('dd', {}, i.origin
              + (i.priority !== null && i.priority !== undefined ? ', priority ' + i.priority + ' (its own)' : '')),
            h('dt', {}, 'Key'), h('dd', {class: 'mono'}, i.key || '—'),
            h('dt', {}, 'Workflow run'), h('dd', {id: 'run'},
              i.runId ? h('a', {href: '#/workflows?run=' + seg(i.runId), class: 'mono', 'data-run': i.runId}, i.runId)
                : '—')),
          actions.length ? h('div', {class: 'actions'}, actions) : null,
          h('h2', {}, 'Attempts'),
          (i.attempts || []).length
            ? table(['Attempt', 'Node', 'Started', 'Took', 'Outcome', 'Error'],
              i.attempts.map(a => h('tr', {'data-attempt': a.attempt, 'data-outcome': a.outcome},
                h('td', {}, a.attempt),
                h('td', {class: 'mono'}, a.node),
                h('td', {}, time(a.started)),
                h('td', {}, millis(a.durationMillis)),
                h('td', {}, stateBadge(a.outcome)),
                h('td', {class: 'error'}, a.error || ''))))
            : h('p', {class: 'muted'}, 'none yet'),
          i.deadLetter
            ? [h('h2', {}, 'Dead letter'),
              h('p', {id: 'dead-letter'}, 'Died ' + time(i.deadLetter.diedAt) + ': ' + (i.deadLetter.lastError || '')),
              i.deadLetter.stackTrace !== null && i.deadLetter.stackTrace !== undefined
                ? h('pre', {class: 'payload mono', id: 'stack-trace'}, i.deadLetter.stackTrace || '(a timeout: none)')
                : h('p', {class: 'muted', id: 'stack-trace-hidden'},
                  'The stack trace of the last failure is shown to the role ' + i.deadLetter.stackTraceRole + '.')]
            : null,
          h('h2', {}, 'Payload'),
          i.payload
            ? [h('pre', {class: 'payload mono', id: 'payload'}, i.payload.text),
              h('div', {class: 'muted'}, i.payload.bytes + ' bytes' +
                (i.payload.truncated ? ', the first ' + i.payload.text.length + ' characters shown' : ''))]
            : h('p', {class: 'muted'}, 'none'),
          h('h2', {}, 'Audit trail'),
          h('ol', {class: 'timeline', id: 'timeline'}, (i.audit || []).map(a => h('li', {'data-to': a.to},
            h('span', {class: 'when'}, time(a.at)),
            a.from ? [stateBadge(a.from), ' → '] : null, stateBadge(a.to),
            a.takeover ? [' ', h('span', {class: 'state takeover', 'data-takeover': 'true',
              title: 'The attempt ended with its node (crashed, froze, cut off or restarted): not a failure of its handler'},
            'takeover')] : null,
            h('span', {class: 'muted'}, ' attempt ' + a.attempt + ' on ' + a.node),
            a.reason ? h('pre', {class: 'reason'}, a.reason) : null))));
      }
    };
  }

  function deadLettersPage(params) {
    const page = Math.max(0, parseInt(params.get('page') || '0', 10) || 0);
    return {
      title: 'Dead letters',
      async load() {
        const result = await read('/dead-letters?page=' + page + '&size=' + PAGE_SIZE);
        const rows = result.deadLetters.map(d => h('tr', {'data-dead-letter': d.instanceId},
          h('td', {}, instanceLink(d.instanceId)),
          h('td', {}, d.task),
          h('td', {}, time(d.diedAt)),
          h('td', {class: 'num'}, d.attempts),
          h('td', {class: 'error'}, h('pre', {class: 'mono', title: bounded(d.lastError, 2000)},
            bounded(d.lastError, ERROR_CHARS))),
          h('td', {}, session.canWrite
            ? actionButton('Replay', 'replay', 'POST', '/dead-letters/' + seg(d.instanceId) + '/replay',
              r => 'Instance ' + r.id + ' replayed: now ' + r.state)
            : null)));
        return h('div', {},
          h('p', {class: 'muted'}, result.total + ' dead letter(s), newest first'),
          rows.length ? table(['Instance', 'Task', 'Died', 'Attempts', 'Last error', ''], rows)
            : h('p', {class: 'muted'}, 'None.'),
          pager('#/dead-letters', params, page, (page + 1) * PAGE_SIZE < result.total, result.total));
      }
    };
  }

  /** Every workflow with its recent runs; ?run= (the link of a step's instance) marks that run and colours by it. */
  function workflowsPage(params) {
    const chosen = params.get('run');
    let scrolled = false;
    return {
      title: 'Workflows',
      async load() {
        const workflows = (await read('/workflows')).workflows || [];
        if (!workflows.length) {
          return h('p', {class: 'muted', 'data-empty': 'true'},
            'No workflow: a task that depends on another (dependsOn) makes one.');
        }
        const listed = chosen && workflows.some(w => (w.runs || []).some(r => r.runId === chosen));
        const content = h('div', {},
          chosen && !listed ? h('p', {class: 'notice', 'data-run-not-listed': chosen}, 'Run ' + chosen
            + ' is not among the newest runs listed here; it began with instance ', instanceLink(chosen), '.') : null,
          workflows.map(w => workflowSection(w, chosen)));
        if (listed && !scrolled) {
          // once, after the first draw: the polls that follow must not pull the page back under the reader
          scrolled = true;
          setTimeout(() => {
            const row = content.querySelector('tr[data-selected]');
            if (row && row.isConnected) {
              row.scrollIntoView({block: 'center'});
            }
          }, 0);
        }
        return content;
      }
    };
  }

  /**
   * A run whose root still waits for its time: the endpoint lists it (as running), but nothing of it has happened
   * yet. A cron root's next fire is stored ahead, so the newest run is often one of these.
   */
  function waiting(run, root) {
    return ['CREATED', 'SCHEDULED'].includes((run.steps || {})[root]);
  }

  function workflowSection(w, chosen) {
    const picked = (w.runs || []).find(r => r.runId === chosen);
    // the picture is coloured by the run the reader came for, else by the newest that has started
    const shown = picked || (w.runs || []).find(r => !waiting(r, w.root));
    const rows = (w.runs || []).map(r => {
      const state = waiting(r, w.root) ? 'waiting' : r.state;
      const mine = r.runId === chosen;
      return h('tr', {'data-run': r.runId, 'data-state': state, 'data-selected': mine ? 'true' : null,
        class: mine ? 'selected' : null},
        h('td', {}, instanceLink(r.runId)),
        h('td', {}, time(r.startedAt)),
        h('td', {}, stateBadge(state)),
        w.nodes.map(task => h('td', {'data-step': task},
          r.steps && r.steps[task] ? stateBadge(r.steps[task]) : h('span', {class: 'muted'}, '—'))));
    });
    return h('section', {class: 'workflow', 'data-workflow': w.root},
      h('h2', {}, w.root),
      h('div', {class: 'dag'}, dagPicture(w, shown ? shown.steps || {} : {})),
      h('p', {class: 'muted', 'data-coloured-by': shown ? shown.runId : null}, picked
        ? 'Colours: each step in run ' + picked.runId + ' (' + picked.state + '), marked below.'
        : shown
          ? 'Colours: each step in the newest run that has started, ' + shown.runId + ' (' + shown.state + ').'
          : 'No run has started yet: a run starts when ' + w.root + ' fires.'),
      rows.length ? table(['Run', 'Started', 'State'].concat(w.nodes), rows) : null);
  }

  // the DAG picture: one column per depth from the root (the longest way there), edges drawn left to right
  const NODE_W = 150;
  const NODE_H = 34;
  const GAP_X = 70;
  const GAP_Y = 18;
  const MARGIN = 8;
  const ARROW = 8;
  const NAME_CHARS = 18;

  /** Depth of each task: 0 for the root, else one more than its deepest upstream. Nodes come upstream first. */
  function depths(nodes, edges) {
    const depth = new Map(nodes.map(n => [n, 0]));
    for (const n of nodes) {
      for (const e of edges) {
        if (e.to === n && depth.has(e.from)) {
          depth.set(n, Math.max(depth.get(n), depth.get(e.from) + 1));
        }
      }
    }
    return depth;
  }

  /** The top-left corner of each task's box: columns by depth, each column centred on the tallest. */
  function layout(nodes, edges) {
    const depth = depths(nodes, edges);
    const columns = [];
    for (const n of nodes) {
      const d = depth.get(n);
      (columns[d] = columns[d] || []).push(n);
    }
    const tallest = Math.max(1, ...columns.map(c => (c || []).length));
    const at = new Map();
    columns.forEach((column, d) => {
      const offset = (tallest - column.length) * (NODE_H + GAP_Y) / 2;
      column.forEach((n, i) => at.set(n, {
        x: MARGIN + d * (NODE_W + GAP_X),
        y: MARGIN + offset + i * (NODE_H + GAP_Y)
      }));
    });
    return {at, width: 2 * MARGIN + columns.length * NODE_W + (columns.length - 1) * GAP_X,
      height: 2 * MARGIN + tallest * NODE_H + (tallest - 1) * GAP_Y};
  }

  function dagPicture(w, steps) {
    const {at, width, height} = layout(w.nodes, w.edges);
    const edges = w.edges.filter(e => at.has(e.from) && at.has(e.to)).map(e => {
      const from = at.get(e.from);
      const to = at.get(e.to);
      const x1 = from.x + NODE_W;
      const y1 = from.y + NODE_H / 2;
      const x2 = to.x - ARROW;
      const y2 = to.y + NODE_H / 2;
      const bend = (x2 - x1) / 2;
      // the curve ends level, so the arrow head drawn after it points straight at the box
      return s('g', {class: 'edge', 'data-dag-edge': e.from + ' -> ' + e.to, 'data-from': e.from, 'data-to': e.to},
        s('path', {d: 'M' + x1 + ',' + y1 + ' C' + (x1 + bend) + ',' + y1 + ' ' + (x2 - bend) + ',' + y2 + ' ' + x2
          + ',' + y2}),
        s('polygon', {points: x2 + ',' + (y2 - ARROW / 2) + ' ' + (x2 + ARROW) + ',' + y2 + ' ' + x2 + ','
          + (y2 + ARROW / 2)}));
    });
    const boxes = w.nodes.map(n => {
      const p = at.get(n);
      const state = steps[n] || 'none';
      return s('a', {href: '#/instances?task=' + seg(n), class: 'node', 'data-dag-node': n, 'data-state': state},
        s('title', {}, n + ': ' + (steps[n] || 'no instance in the newest run')),
        s('rect', {x: p.x, y: p.y, width: NODE_W, height: NODE_H, rx: 5}),
        s('text', {x: p.x + NODE_W / 2, y: p.y + NODE_H / 2 + 4, 'text-anchor': 'middle'}, bounded(n, NAME_CHARS)));
    });
    return s('svg', {viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img',
      'aria-label': 'workflow ' + w.root}, edges, boxes);
  }

  function nodesPage() {
    return {
      title: 'Nodes',
      async load() {
        const node = await read('');
        const p = node.partitions;
        const perNode = p ? p.perNode || {} : {};
        const rows = (node.nodes || []).map(n => h('tr', {'data-node': n.node},
          h('td', {class: 'mono'}, n.node),
          h('td', {}, n.node === node.leader ? 'leader' : n.capacityFree < 0 ? 'leaving' : 'standby',
            n.node === node.node ? ' (this node)' : ''),
          h('td', {}, n.host),
          h('td', {}, time(n.startedAt)),
          h('td', {class: 'num'}, millis(n.heartbeatAgeMillis)),
          h('td', {class: 'num'}, n.capacityFree < 0 ? '' : n.capacityFree),
          h('td', {class: 'num', 'data-partitions': perNode[n.node] || 0}, p ? perNode[n.node] || 0 : '—')));
        const reassigned = Object.entries(node.reassigned || {}).map(([k, v]) => k + ': ' + v).join(', ');
        return h('div', {},
          h('div', {class: 'cards'},
            card('Leader', node.leader || 'none', 'leader'),
            card('Epoch', node.epoch, 'epoch'),
            card('Lease expires', time(node.leaseExpiresAt), 'lease'),
            card('Reassigned by this node', reassigned || '0', 'reassigned'),
            p ? card('Partitions of this node', p.owned + ' of ' + p.count
              + (p.owned ? ' (epochs ' + p.lowestEpoch + (p.highestEpoch !== p.lowestEpoch ? '–' + p.highestEpoch : '')
                + ')' : '') + (p.deciding ? '' : ', not deciding'), 'partitions') : null,
            p ? card('Partition moves of this node', p.gained + ' taken, ' + p.lost + ' given up', 'moves') : null),
          h('h2', {}, 'Live nodes'),
          table(['Node', 'Role', 'Host', 'Started', 'Heartbeat age', 'Free capacity', 'Partitions'], rows),
          p && p.owned ? h('p', {class: 'muted mono', 'data-owned-ranges': ''}, 'This node owns ' + p.ownedRanges)
            : null);
      }
    };
  }

  // ---- routing and polling ----------------------------------------------------------------------------------

  function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    const [path, query] = hash.split('?');
    const [name, ...rest] = path.split('/');
    return {
      name: pages[name] ? name : 'overview',
      arg: rest.length ? decodeURIComponent(rest.join('/')) : null,
      params: new URLSearchParams(query || '')
    };
  }

  function navigate() {
    generation++;
    lastDrawn = '';
    notice(null);
    const r = route();
    const page = pages[r.name](r.params, r.arg);
    for (const a of document.querySelectorAll('#nav a')) {
      a.classList.toggle('current', a.dataset.page === (r.name === 'instance' ? 'instances' : r.name === 'task' ? 'tasks' : r.name));
    }
    const region = h('div', {id: 'content'});
    const parts = [h('h1', {}, page.title, r.arg ? h('span', {class: 'muted mono'}, ' ' + r.arg) : null)];
    if (page.head) {
      parts.push(page.head);
    }
    parts.push(region);
    document.getElementById('main').replaceChildren(...parts);
    document.title = 'AX · ' + page.title;
    view = {page, region, generation};
    refreshNow();
  }

  async function refreshNow() {
    if (!view || busy) {
      return;
    }
    const mine = view;
    try {
      const content = await mine.page.load();
      if (mine.generation !== generation || busy) {
        return;
      }
      // redraw only what changed, so that a button under the cursor stays the same element between polls
      const drawn = new XMLSerializer().serializeToString(content);
      if (drawn !== lastDrawn) {
        mine.region.replaceChildren(content);
        lastDrawn = drawn;
      }
      document.getElementById('refreshed').textContent = 'Updated ' + new Date().toLocaleTimeString();
      document.body.dataset.loaded = 'true';
    } catch (e) {
      if (mine.generation === generation) {
        notice(e.status === 401 || e.status === 403
          ? 'Not allowed (' + e.message + '): sign in with a user who may read the ax endpoint.'
          : 'Could not read the ax endpoint: ' + e.message, 'error');
      }
    }
  }

  async function start() {
    try {
      session = await answer(await fetch('api/session', {credentials: 'same-origin', headers: READ_HEADERS}));
    } catch (e) {
      notice('Could not read the session: ' + e.message, 'error');
      return;
    }
    const who = document.getElementById('who');
    who.replaceChildren(document.createTextNode(session.user ? 'signed in as ' + session.user : 'not signed in'),
      document.createTextNode(session.canWrite ? ' · may act' : ' · read-only'));
    who.dataset.canWrite = String(session.canWrite);
    if (!session.endpoint) {
      notice('The ax Actuator endpoint is not exposed: add "ax" to management.endpoints.web.exposure.include.',
        'error');
      return;
    }
    window.addEventListener('hashchange', navigate);
    navigate();
    setInterval(() => {
      if (!document.hidden) {
        refreshNow();
      }
    }, POLL_MS);
  }

  start();
}());
