// The page's behaviour: search with facets, selection and details, tables, type jumps, deep links and keys.
// Plain DOM code, inlined into the page; it builds the details panel with textContent and createElement only, never
// by parsing HTML.
;(function () {
  'use strict'
  var data = JSON.parse(document.getElementById('apipe-data').textContent)
  // Empty fields are left out of the data, params are shared in a table, and what a row shows (id, method, path,
  // summary, auth, deprecated, its card's group) is read from the row itself: fill the endpoints back in once.
  // A catalogue with no endpoints has none in its data either (empty fields are left out).
  var endpoints = (data.endpoints || []).map(function (e) {
    return {
      description: e.description || '', tags: e.tags || [], entities: e.entities || [], request: e.request,
      response: e.response, status: e.status || [], sources: e.sources || [], findings: e.findings || [],
      params: (e.params || []).map(function (index) { return data.params[index] }),
      responses: e.responses && e.responses.map(function (index) { return data.responses[index] }),
      requestDescription: e.requestDescription, requestExample: e.requestExample, requestMedia: e.requestMedia,
      requestRequired: e.requestRequired === true, baseUrl: e.baseUrl, authAlternatives: e.authAlternatives || [],
      correlationId: e.correlationId
    }
  })
  var search = document.getElementById('apipe-search')
  var count = document.getElementById('apipe-count')
  var empty = document.getElementById('apipe-empty')
  var details = document.getElementById('apipe-details')
  var findingsButton = document.getElementById('apipe-findings')
  // The reference builds its panels with this script's two DOM helpers (function declarations: hoisted).
  var reference = apipeReference(data, {element: element, sanitized: sanitized})
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
    var card = row.closest('.card')
    e.group = card.getAttribute('data-group')
    // The label as the document wrote the tag (`activity`), where the id had to differ (`activity-2`: a type has the name).
    e.groupLabel = card.querySelector('h2').firstChild.textContent.trim()
  })
  var cards = Array.prototype.slice.call(document.querySelectorAll('.card'))
  // The id too (an operationId, an event's name): rows on one address differ by nothing else.
  var haystacks = endpoints.map(function (e) {
    return (e.method + ' ' + e.path + ' ' + e.id + ' ' + e.summary + ' ' + e.tags.join(' ')).toLowerCase()
  })
  var visible = rows.map(function () { return true })
  var selected = -1
  // Each facet asks `is(value)` of the endpoint's values: does this one match what was typed?
  var facets = {
    method: function (e, is) { return is(e.method) },
    group: function (e, is) { return is(e.group) || is(e.groupLabel) },
    // An import's first tag is the endpoint's group: `tag:` finds it there too, by its id or its label.
    tag: function (e, is) { return is(e.group) || is(e.groupLabel) || e.tags.some(is) },
    // Every scheme the endpoint accepts: its `auth` and its alternatives, each of the schemes needed together.
    auth: function (e, is) {
      return [e.auth || 'none'].concat(e.authAlternatives).some(function (a) { return a.split(' + ').some(is) })
    },
    table: function (e, is) { return e.entities.some(is) },
    deprecated: function (e, is) { return e.deprecated === (is('true') || is('yes')) },
    has: function (e, is) { return is('finding') ? e.findings.length > 0 : true }
  }

  /**
   * Parse `method:GET pets "two words"` into facet tests and free-text terms. A facet still being typed (`method:`,
   * `tag:"pet st`) narrows nothing until it has a value, rather than hiding every row.
   */
  function parse(query) {
    var tests = []
    var terms = []
    var pattern = /(\w+):("[^"]*"?|\S*)|"([^"]*)"?|(\S+)/g
    var match
    while ((match = pattern.exec(query.toLowerCase()))) {
      if (match[1] && facets[match[1]]) {
        var value = match[2].replace(/^"|"$/g, '')
        if (value) tests.push(facetTest(facets[match[1]], value))
      } else if (match[0] === '"') {
        continue
      } else {
        terms.push(match[0].replace(/^"|"$/g, ''))
      }
    }
    return {tests: tests, terms: terms}
  }

  /**
   * A facet's test of one endpoint. A value that some endpoint has (`method:get`, `tag:pet`) matches it exactly; one
   * that none has is taken as still being typed (`method:g`, `tag:pe`) and matches the values it starts.
   */
  function facetTest(facet, value) {
    var hit = false
    var exact = function (candidate) {
      var same = candidate.toLowerCase() === value
      hit = hit || same
      return same
    }
    for (var index = 0; !hit && index < endpoints.length; index++) facet(endpoints[index], exact)
    var is = hit ? exact : function (candidate) { return candidate.toLowerCase().indexOf(value) === 0 }
    return function (e) { return facet(e, is) }
  }

  function applySearch() {
    var query = parse(search.value.trim())
    var shown = 0
    for (var index = 0; index < endpoints.length; index++) {
      var e = endpoints[index]
      var hay = haystacks[index]
      var ok = true
      for (var t = 0; ok && t < query.terms.length; t++) ok = hay.indexOf(query.terms[t]) !== -1
      for (var f = 0; ok && f < query.tests.length; f++) ok = query.tests[f](e)
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
    followCards(followIndex())
    var noun = data.noun || 'endpoints'
    count.textContent = shown === endpoints.length ? endpoints.length + ' ' + (endpoints.length === 1 ? noun.slice(0, -1) : noun) : shown + ' of ' + endpoints.length + ' ' + noun
    empty.hidden = shown !== 0
    if (findingsButton) findingsButton.setAttribute('aria-pressed', String(/(^|\s)has:finding(\s|$)/.test(search.value)))
  }

  function element(tag, className, text) {
    var node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  /**
   * Markup that the page build has already sanitized (descriptions: Markdown through markdown-it, raw HTML in them
   * rewritten from an allow-list); the script places only such markup, and builds everything else with
   * textContent and createElement.
   */
  function sanitized(className, markup) {
    var node = element('div', className)
    node.innerHTML = markup
    return node
  }

  function section(title, content) {
    var wrap = element('section')
    wrap.appendChild(element('h3', '', title))
    wrap.appendChild(content)
    return wrap
  }

  // The group index follows the search: each group's count of visible rows, and no entry for a group with none.
  var indexEntries = Array.prototype.slice.call(document.querySelectorAll('#apipe-index li[data-group]'))
  function followIndex() {
    var counts = Object.create(null)
    for (var index = 0; index < endpoints.length; index++) {
      if (visible[index]) counts[endpoints[index].group] = (counts[endpoints[index].group] || 0) + 1
    }
    indexEntries.forEach(function (entry) {
      var n = counts[entry.getAttribute('data-group')] || 0
      var count = entry.lastChild
      if (count.textContent !== String(n)) count.textContent = String(n)
      if (entry.hidden !== (n === 0)) entry.hidden = n === 0
    })
    return counts
  }

  // A card's count follows the search too: `3 of 12` while a search hides some of its group's rows. A group split
  // over several cards is counted on its first, whose count is the group's; the others say `continued`.
  var cardCounts = cards.map(function (card) {
    var count = card.querySelector('h2 > .count:not(.rows-range)')
    var total = count && count.textContent
    return /^\d+$/.test(total) ? {card: card, count: count, total: total} : undefined
  }).filter(Boolean)
  function followCards(counts) {
    cardCounts.forEach(function (entry) {
      var n = String(counts[entry.card.getAttribute('data-group')] || 0)
      var text = n === entry.total ? entry.total : n + ' of ' + entry.total
      if (entry.count.textContent !== text) entry.count.textContent = text
    })
  }

  /** The endpoints that name type `name` in a request, response or param, as links, into a type card's list. */
  function usedBy(name, into) {
    var list = element('ul')
    endpoints.forEach(function (e, index) {
      var types = [e.request, e.response].concat((e.responses || []).map(function (r) { return r.type }), e.params.map(function (p) { return p.type }))
      var uses = types.some(function (type) { return type && reference.baseType(type) === name })
      if (!uses) return
      var link = list.appendChild(element('li')).appendChild(element('a'))
      link.href = '#' + encodeURIComponent(e.id)
      link.appendChild(element('span', 'method-text', e.method))
      link.appendChild(document.createTextNode(' ' + e.path))
    })
    into.appendChild(list)
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
    // The path as its row shows it, with the places it may wrap (markup the page build wrote).
    title.appendChild(element('span', 'path')).innerHTML = rows[byId[e.id]].querySelector('.path').innerHTML
    details.appendChild(title)
    // Where another row has the same method and path, the id its row shows (page.ts) says which one this is.
    if (rows[byId[e.id]].querySelector('.route-id')) details.appendChild(element('p', 'route-id', e.id))
    var chips = element('div', 'chip-list')
    if (e.deprecated) chips.appendChild(element('span', 'chip deprecated-chip', 'deprecated'))
    // Schemes an endpoint takes instead of its first (`x-auth-alternatives`) are as much a way in.
    if (e.auth && e.auth !== 'none') chips.appendChild(element('span', 'chip lock', 'auth: ' + [e.auth].concat(e.authAlternatives).join(' or ')))
    e.tags.forEach(function (tag) { chips.appendChild(element('span', 'chip', '#' + tag)) })
    details.appendChild(chips)
    var summary = rows[byId[e.id]].querySelector('.summary')
    if (summary) details.appendChild(element('p', 'summary-text')).innerHTML = summary.innerHTML
    if (e.description) details.appendChild(section('Description', sanitized('rich', e.description)))
    var curl = reference.curl(e)
    if (curl) details.appendChild(section('Try it', curl))
    if (e.params.length) details.appendChild(section(e.method === 'EVENT' ? 'Parameters' : /^(QUERY|MUTATION|SUBSCRIPTION)$/.test(e.method) ? 'Arguments' : 'Parameters', reference.params(e.params)))
    if (e.method === 'EVENT') {
      // An event has one body, the payload its subscribers receive (importers write its type as `response`).
      var payload = e.request || e.response
      if (payload || e.requestExample !== undefined) details.appendChild(section('Payload', reference.body(payload, e.requestDescription, e.requestExample)))
      // Where a reply finds the id that ties it to this message (`x-correlation-id`, a runtime expression).
      if (e.correlationId) {
        var correlation = element('p', 'correlation', 'A reply finds the id that ties it to this message at ')
        correlation.appendChild(element('code', null, e.correlationId))
        details.appendChild(section('Correlation id', correlation))
      }
      // A webhook's responses say what its receiver must answer ("any 2xx accepts it").
      if (e.responses && e.responses.length) details.appendChild(section('Responses', reference.responses(e)))
    } else {
      if (e.request || e.requestExample !== undefined || e.requestDescription) details.appendChild(section(/^(QUERY|MUTATION|SUBSCRIPTION)$/.test(e.method) ? 'Input' : e.requestRequired ? 'Request body (required)' : 'Request body', reference.body(e.request, e.requestDescription, e.requestExample)))
      var responses = reference.responses(e)
      if (responses) details.appendChild(section(/^(QUERY|MUTATION|SUBSCRIPTION)$/.test(e.method) ? 'Returns' : 'Responses', responses))
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
    // Scrolling a 1,000-row page costs a layout of its own (10 ms on Kubernetes): only when the row is out of view.
    if (options && options.scroll) {
      var box = row.getBoundingClientRect()
      if (box.top < 0 || box.bottom > window.innerHeight) row.scrollIntoView({block: 'nearest'})
    }
    if (options && options.focus) row.focus({preventScroll: true})
  }

  function closeDetails() {
    // The address no longer names the endpoint once its panel is closed (a reload or a shared link would reopen it).
    if (location.hash && decodeURIComponent(location.hash.slice(1)) in byId) history.replaceState(null, '', location.href.split('#')[0])
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
    if (id in byId) {
      // A click on a row selected it already (below); the hash it sets only confirms the selection.
      if (byId[id] !== selected || details.hidden) select(byId[id], {scroll: true})
    }
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

  // The description in the header: its first lines, and the rest behind a button.
  var lead = document.getElementById('apipe-lead')
  if (lead && lead.scrollHeight > lead.clientHeight + 2) {
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

  /**
   * The type cards come deflated (plugins/render-html/types-view.ts): inflated by the browser's DecompressionStream
   * as soon as the script runs, in the background of the first screen. An open details panel and a `#type-…` link
   * are brought up to date when they arrive.
   */
  function inflateTypeCards() {
    var packed = document.getElementById('apipe-type-cards')
    var grid = document.getElementById('apipe-type-grid')
    if (!packed || !grid || typeof DecompressionStream === 'undefined') return Promise.resolve()
    var binary = atob(packed.textContent)
    var bytes = new Uint8Array(binary.length)
    for (var index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))
    return new Response(stream).text().then(function (html) {
      grid.innerHTML = html
      grid.querySelectorAll('details.used-by').forEach(function (node) {
        node.addEventListener('toggle', function fill() {
          node.removeEventListener('toggle', fill)
          usedBy(node.getAttribute('data-type'), node)
        })
      })
      document.documentElement.setAttribute('data-types', 'ready')
      if (selected !== -1) renderDetails(endpoints[selected])
      if (location.hash.indexOf('#type-') === 0) fromHash()
    })
  }
  inflateTypeCards()
  // On a narrow screen the group index starts closed, so that the first rows stay on the first screen.
  var groupIndex = document.getElementById('apipe-index')
  if (groupIndex && window.matchMedia('(max-width: 720px)').matches) groupIndex.open = false

  // A click on a row selects it at once, in the frame of the click, rather than on the `hashchange` that follows.
  document.addEventListener('click', function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    var row = event.target.closest && event.target.closest('a.row')
    if (row && row.id in byId) select(byId[row.id])
  })
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
      // Out of the box too, so that `j` and `k` move through the rows again.
      if (typing) search.blur()
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
