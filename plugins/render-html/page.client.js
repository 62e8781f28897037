// The page's behaviour: search with facets, selection and details, tables, type jumps, deep links and keys.
// Plain DOM code, inlined into the page; it builds the details panel with textContent and createElement only, never
// by parsing HTML.
;(function () {
  'use strict'
  var data = JSON.parse(document.getElementById('apipe-data').textContent)
  // Empty fields are left out of the data, params are shared in a table, and what a row shows (id, method, path,
  // summary, auth, deprecated, its card's group) is read from the row itself: fill the endpoints back in once.
  var endpoints = data.endpoints.map(function (e) {
    return {
      description: e.description || '', tags: e.tags || [], entities: e.entities || [], request: e.request,
      response: e.response, status: e.status || [], sources: e.sources || [], findings: e.findings || [],
      params: (e.params || []).map(function (index) { return data.params[index] })
    }
  })
  var search = document.getElementById('apipe-search')
  var count = document.getElementById('apipe-count')
  var empty = document.getElementById('apipe-empty')
  var details = document.getElementById('apipe-details')
  var findingsButton = document.getElementById('apipe-findings')
  var rows = []
  var byId = Object.create(null)
  // The data lists the endpoints in the order of their rows on the page.
  document.querySelectorAll('a.row').forEach(function (row, index) {
    var e = endpoints[index]
    var summary = row.querySelector('.summary')
    var lock = row.querySelector('.lock')
    rows[index] = row
    e.id = row.id
    byId[e.id] = index
    e.method = row.firstChild.textContent
    e.path = row.children[1].textContent
    e.summary = summary ? summary.textContent : ''
    e.auth = lock ? lock.textContent : ''
    e.deprecated = row.classList.contains('deprecated')
    e.group = row.closest('.card').getAttribute('data-group')
  })
  var cards = Array.prototype.slice.call(document.querySelectorAll('.card'))
  var haystacks = endpoints.map(function (e) {
    return (e.method + ' ' + e.path + ' ' + e.summary + ' ' + e.tags.join(' ')).toLowerCase()
  })
  var visible = rows.map(function () { return true })
  var selected = -1
  var facets = {
    method: function (e, v) { return e.method.toLowerCase() === v },
    group: function (e, v) { return e.group.toLowerCase() === v },
    tag: function (e, v) { return e.tags.some(function (t) { return t.toLowerCase() === v }) },
    auth: function (e, v) { return (e.auth || 'none').toLowerCase() === v },
    table: function (e, v) { return e.entities.some(function (t) { return t.toLowerCase() === v }) },
    deprecated: function (e, v) { return e.deprecated === (v === 'true' || v === 'yes') },
    has: function (e, v) { return v === 'finding' ? e.findings.length > 0 : true }
  }

  /** Parse `method:GET pets "two words"` into facet tests and free-text terms. */
  function parse(query) {
    var tests = []
    var terms = []
    var pattern = /(\w+):("[^"]*"|\S+)|"([^"]*)"|(\S+)/g
    var match
    while ((match = pattern.exec(query.toLowerCase()))) {
      if (match[1] && facets[match[1]]) {
        tests.push({facet: facets[match[1]], value: match[2].replace(/^"|"$/g, '')})
      } else {
        terms.push(match[0].replace(/^"|"$/g, ''))
      }
    }
    return {tests: tests, terms: terms}
  }

  function applySearch() {
    var query = parse(search.value.trim())
    var shown = 0
    for (var index = 0; index < endpoints.length; index++) {
      var e = endpoints[index]
      var hay = haystacks[index]
      var ok = true
      for (var t = 0; ok && t < query.terms.length; t++) ok = hay.indexOf(query.terms[t]) !== -1
      for (var f = 0; ok && f < query.tests.length; f++) ok = query.tests[f].facet(e, query.tests[f].value)
      if (ok) shown++
      if (ok !== visible[index]) {
        visible[index] = ok
        rows[index].parentNode.hidden = !ok
      }
    }
    cards.forEach(function (card) {
      var any = card.querySelector('.rows > li:not([hidden])') !== null
      if (card.hidden === any) card.hidden = !any
    })
    count.textContent = shown === endpoints.length ? endpoints.length + ' endpoints' : shown + ' of ' + endpoints.length + ' endpoints'
    empty.hidden = shown !== 0
    if (findingsButton) findingsButton.setAttribute('aria-pressed', String(/(^|\s)has:finding(\s|$)/.test(search.value)))
  }

  function element(tag, className, text) {
    var node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  // Every repeat in these patterns is bounded or stops at a character it cannot cross, so that a hostile
  // description (thousands of unclosed `<code>` or `<a href="`) costs time in proportion to its length.
  var blockTags = /<\/?(p|div|ul|ol)\b[^>]{0,200}>|<li\b[^>]{0,200}>|<\/li>|<br\s*\/?>/gi
  var inlinePattern = /`([^`]+)`|<code>([\s\S]{0,2000}?)<\/code>|\*\*([^*]+)\*\*|<(strong|b)>([\s\S]{0,2000}?)<\/\4>|\*([^*\s](?:[^*]*[^*\s])?)\*|<(em|i)>([\s\S]{0,2000}?)<\/\7>|\[([^\]]{1,500})\]\(((?:[^()\s]|\([^()\s]{0,200}\)){1,2000})(?:\s+"[^"]{0,500}")?\)|<a\s[^>]{0,200}?href="([^"]{0,2000})"[^>]{0,200}>([\s\S]{0,2000}?)<\/a>|<(https?:\/\/[^>\s]{1,2000})>/gi
  // Longer descriptions are not prose: they are shown as the text they are.
  var richTextLimit = 20000
  var entities = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0'}

  function decode(text) {
    return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, function (whole, name) {
      if (name[0] !== '#') return entities[name.toLowerCase()] || whole
      var code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole
    })
  }

  /** A link only to a web or mail address; any other target (`javascript:`, a relative path) leaves the text. */
  function link(target, label, into) {
    var href = decode(target).trim()
    if (!/^(https?:|mailto:)/i.test(href)) return inline(label, into)
    var node = element('a')
    node.href = href
    node.target = '_blank'
    node.rel = 'noopener noreferrer'
    inline(label, node)
    into.appendChild(node)
  }

  /** `code`, **strong**, *em*, links and the same few HTML tags, as nodes; everything else stays text. */
  function inline(text, into) {
    var pattern = new RegExp(inlinePattern.source, 'gi')
    var last = 0
    var match
    while ((match = pattern.exec(text))) {
      if (match.index > last) into.appendChild(document.createTextNode(decode(text.slice(last, match.index))))
      last = pattern.lastIndex
      if (match[1] !== undefined) into.appendChild(element('code', '', match[1]))
      else if (match[2] !== undefined) into.appendChild(element('code', '', decode(match[2])))
      else if (match[3] !== undefined || match[5] !== undefined) inline(match[3] !== undefined ? match[3] : match[5], into.appendChild(element('strong')))
      else if (match[6] !== undefined || match[8] !== undefined) inline(match[6] !== undefined ? match[6] : match[8], into.appendChild(element('em')))
      else if (match[9] !== undefined) link(match[10], match[9], into)
      else if (match[11] !== undefined) link(match[11], match[12], into)
      else link(match[13], match[13], into)
    }
    if (last < text.length) into.appendChild(document.createTextNode(decode(text.slice(last))))
    return into
  }

  /**
   * A description as OpenAPI means it, CommonMark that may hold HTML, in the subset API descriptions use:
   * paragraphs, lists, fenced code, and the inline marks of {@link inline}. It is built as DOM nodes, never parsed
   * as HTML, so a tag outside the subset is shown as the text it is.
   */
  function richText(text) {
    var fragment = document.createDocumentFragment()
    if (text.length > richTextLimit) {
      fragment.appendChild(element('p', 'text', text))
      return fragment
    }
    var source = text.replace(/\r\n?/g, '\n').replace(blockTags, function (tag) {
      var name = tag.toLowerCase()
      return name.indexOf('<li') === 0 ? '\n- ' : name.indexOf('<br') === 0 ? '\n' : name === '</li>' ? '' : '\n\n'
    })
    var bullet = /^\s*([-*+]|\d+[.)])\s+/
    var list, item, paragraph, code
    source.split('\n').forEach(function (line) {
      if (code) {
        // Inside a fence until a line that closes it; its lines are set as one text when it closes.
        if (/^\s*```/.test(line)) code = closeFence(code)
        else code.lines.push(line)
      } else if (/^\s*```/.test(line)) {
        list = item = paragraph = undefined
        code = {node: fragment.appendChild(element('pre')).appendChild(element('code')), lines: []}
      } else if (line.trim() === '') {
        list = item = paragraph = undefined
      } else if (bullet.test(line)) {
        if (!list) fragment.appendChild((list = element(/^\s*\d/.test(line) ? 'ol' : 'ul')))
        item = list.appendChild(element('li'))
        paragraph = undefined
        inline(line.replace(bullet, '').trim(), item)
      } else if (item && /^\s/.test(line)) {
        item.appendChild(document.createTextNode(' '))
        inline(line.trim(), item)
      } else if (paragraph) {
        paragraph.appendChild(document.createTextNode(' '))
        inline(line.trim(), paragraph)
      } else {
        list = item = undefined
        var heading = /^#{1,6}\s+/.test(line)
        paragraph = fragment.appendChild(element('p', heading ? 'heading' : ''))
        inline(line.replace(/^#{1,6}\s+/, '').trim(), paragraph)
      }
    })
    if (code) closeFence(code)
    return fragment
  }

  function closeFence(code) {
    code.node.textContent = code.lines.join('\n')
    return undefined
  }

  function section(title, content) {
    var wrap = element('section')
    wrap.appendChild(element('h3', '', title))
    wrap.appendChild(content)
    return wrap
  }

  /** A type chip: `"string"` names no declared type; `[expression]` or `[expression, type]` jumps to the type. */
  function typeChip(type) {
    if (typeof type === 'string') return element('code', '', type)
    var link = element('a', 'chip type-chip', type[0])
    link.href = '#type-' + (type[1] || type[0])
    return link
  }

  function renderDetails(e) {
    details.textContent = ''
    var close = element('button', 'close', '×')
    close.type = 'button'
    close.setAttribute('aria-label', 'Close details')
    close.addEventListener('click', closeDetails)
    details.appendChild(close)
    var title = element('h2')
    title.appendChild(element('span', 'method m-' + e.method.toLowerCase(), e.method))
    title.appendChild(element('span', 'path', e.path))
    details.appendChild(title)
    var chips = element('div', 'chip-list')
    if (e.deprecated) chips.appendChild(element('span', 'chip deprecated-chip', 'deprecated'))
    if (e.auth && e.auth !== 'none') chips.appendChild(element('span', 'chip lock', 'auth: ' + e.auth))
    e.tags.forEach(function (tag) { chips.appendChild(element('span', 'chip', '#' + tag)) })
    details.appendChild(chips)
    if (e.summary) details.appendChild(element('p', 'text', e.summary))
    if (e.description) {
      var description = element('div', 'rich')
      description.appendChild(richText(e.description))
      details.appendChild(section('Description', description))
    }
    if (e.params.length) {
      var table = element('table')
      var head = element('tr')
      ;['Name', 'In', 'Type', 'Required'].forEach(function (name) { head.appendChild(element('th', '', name)) })
      table.appendChild(head)
      e.params.forEach(function (p) {
        var tr = element('tr')
        tr.appendChild(element('td', 'field-name', p.name))
        tr.appendChild(element('td', '', p.in))
        tr.appendChild(element('td', '', p.type || ''))
        tr.appendChild(element('td', '', p.required || p.in === 'path' ? 'yes' : 'no'))
        table.appendChild(tr)
        // The description on a row of its own under the param, readable without hovering.
        if (p.description) {
          tr.className = 'described'
          var cell = element('td', 'rich param-description')
          cell.colSpan = 4
          cell.appendChild(richText(p.description))
          table.appendChild(element('tr')).appendChild(cell)
        }
      })
      details.appendChild(section('Parameters', table))
    }
    if (e.request || e.response) {
      var types = element('div', 'chip-list')
      if (e.request) { types.appendChild(element('span', '', 'accepts')); types.appendChild(typeChip(e.request)) }
      if (e.response) { types.appendChild(element('span', '', 'returns')); types.appendChild(typeChip(e.response)) }
      details.appendChild(section('Types', types))
    }
    if (e.status.length) {
      var codes = element('div', 'chip-list')
      e.status.forEach(function (code) { codes.appendChild(element('span', 'chip status s' + String(code)[0] + 'xx', String(code))) })
      details.appendChild(section('Responses', codes))
    }
    if (e.entities.length) {
      var entities = element('div', 'chip-list')
      e.entities.forEach(function (name) {
        var chip = element('button', 'chip entity', name)
        chip.type = 'button'
        chip.addEventListener('click', function () { selectTable(name) })
        entities.appendChild(chip)
      })
      details.appendChild(section('Tables', entities))
    }
    if (e.findings.length) {
      var list = element('ul')
      e.findings.forEach(function (finding) { list.appendChild(element('li', 'finding-text', finding)) })
      details.appendChild(section('Findings', list))
    }
    if (data.repository) {
      if (e.sources.length) {
        var sources = element('ul')
        e.sources.forEach(function (s) {
          var item = element('li')
          var link = element('a', 'source', s.file + (s.line ? ':' + s.line : ''))
          link.href = data.repository + '/blob/HEAD/' + s.file.split('/').map(encodeURIComponent).join('/') + (s.line ? '#L' + s.line : '')
          link.target = '_blank'
          link.rel = 'noopener'
          item.appendChild(link)
          sources.appendChild(item)
        })
        details.appendChild(section('Source', sources))
      }
      var report = element('a', 'report', 'Report a problem with this endpoint')
      var subject = '[' + data.title + (data.version ? ' ' + data.version : '') + '] ' + e.method + ' ' + e.path + ' (' + e.id + ')'
      var body = 'Endpoint: ' + e.method + ' ' + e.path + '\nId: ' + e.id + '\nCatalogue: ' + data.title + (data.version ? ' ' + data.version : '') + '\n\nWhat is wrong:\n'
      report.href = data.repository + '/issues/new?title=' + encodeURIComponent(subject) + '&body=' + encodeURIComponent(body)
      report.target = '_blank'
      report.rel = 'noopener'
      details.appendChild(report)
    } else if (e.sources.length) {
      var files = element('ul')
      e.sources.forEach(function (s) { files.appendChild(element('li', 'source', s.file + (s.line ? ':' + s.line : ''))) })
      details.appendChild(section('Source', files))
    }
    details.hidden = false
    document.body.classList.add('with-details')
  }

  function markTables(names) {
    document.querySelectorAll('.table').forEach(function (table) {
      table.classList.toggle('hit', names.indexOf(table.getAttribute('data-table')) !== -1)
    })
  }

  function select(index, options) {
    if (selected !== -1 && rows[selected]) rows[selected].classList.remove('selected')
    selected = index
    var row = rows[index]
    row.classList.add('selected')
    row.setAttribute('aria-current', 'true')
    renderDetails(endpoints[index])
    markTables(endpoints[index].entities)
    if (options && options.scroll) row.scrollIntoView({block: 'nearest'})
    if (options && options.focus) row.focus({preventScroll: true})
  }

  function closeDetails() {
    details.hidden = true
    document.body.classList.remove('with-details')
    if (selected !== -1) {
      rows[selected].classList.remove('selected')
      rows[selected].removeAttribute('aria-current')
    }
    selected = -1
    markTables([])
  }

  function selectTable(name) {
    var pressed
    document.querySelectorAll('.table').forEach(function (table) {
      var on = table.getAttribute('data-table') === name && !table.querySelector('.table-name[aria-pressed="true"]')
      table.querySelector('.table-name').setAttribute('aria-pressed', String(on))
      table.classList.toggle('hit', on)
      if (on) pressed = name
    })
    endpoints.forEach(function (e, index) {
      rows[index].classList.toggle('hit', pressed !== undefined && e.entities.indexOf(pressed) !== -1)
    })
  }

  function highlightType(name) {
    document.querySelectorAll('.type.highlight').forEach(function (node) { node.classList.remove('highlight') })
    var node = document.getElementById('type-' + name)
    if (node) {
      node.classList.add('highlight')
      node.scrollIntoView({block: 'start'})
    }
  }

  function fromHash() {
    var id = decodeURIComponent(location.hash.slice(1))
    if (id in byId) select(byId[id], {scroll: true})
    else if (id.indexOf('type-') === 0) highlightType(id.slice(5))
  }

  /** Select the next (step 1) or previous (step -1) visible row, in page order. */
  function move(step) {
    var next = selected === -1 ? (step > 0 ? 0 : rows.length - 1) : selected + step
    while (next >= 0 && next < rows.length && rows[next].parentNode.hidden) next += step
    if (next < 0 || next >= rows.length) return
    history.replaceState(null, '', '#' + encodeURIComponent(endpoints[next].id))
    select(next, {scroll: true, focus: true})
  }

  // The description in the header as rich text; past its first lines, behind a button.
  var lead = document.getElementById('apipe-lead')
  if (lead && data.description) {
    lead.textContent = ''
    lead.appendChild(richText(data.description))
    if (lead.scrollHeight > lead.clientHeight + 2) {
      var more = element('button', 'chip lead-toggle', 'More')
      more.type = 'button'
      more.setAttribute('aria-expanded', 'false')
      more.addEventListener('click', function () {
        var open = lead.classList.toggle('open')
        more.textContent = open ? 'Less' : 'More'
        more.setAttribute('aria-expanded', String(open))
      })
      lead.parentNode.insertBefore(more, lead.nextSibling)
    }
  }

  search.addEventListener('input', applySearch)
  window.addEventListener('hashchange', fromHash)
  document.querySelectorAll('.table-name').forEach(function (button) {
    button.addEventListener('click', function () { selectTable(button.parentNode.getAttribute('data-table')) })
  })
  if (findingsButton) {
    findingsButton.addEventListener('click', function () {
      var on = findingsButton.getAttribute('aria-pressed') === 'true'
      search.value = on ? search.value.replace(/(^|\s)has:finding(?=\s|$)/g, ' ').trim() : (search.value + ' has:finding').trim()
      applySearch()
    })
  }
  document.addEventListener('keydown', function (event) {
    var typing = event.target === search
    if (event.key === '/' && !typing) {
      event.preventDefault()
      search.focus()
      search.select()
    } else if (event.key === 'Escape') {
      if (search.value) {
        search.value = ''
        applySearch()
      } else if (!details.hidden) {
        closeDetails()
      }
    } else if (!typing && !event.metaKey && !event.ctrlKey && !event.altKey && (event.key === 'j' || event.key === 'ArrowDown')) {
      event.preventDefault()
      move(1)
    } else if (!typing && !event.metaKey && !event.ctrlKey && !event.altKey && (event.key === 'k' || event.key === 'ArrowUp')) {
      event.preventDefault()
      move(-1)
    }
  })
  if (location.hash) fromHash()
})()
