// The details panel as a reference: params with their descriptions, enum values and defaults; the request body and
// each response with their fields, read from the type cards (a field whose type has fields opens in place, and a
// type already open above it stops there); response descriptions, headers and examples; a copyable curl line.
// Inlined before page.client.js, which calls apipeReference once. Descriptions are markup that the page build has
// sanitized; everything else is built with textContent and createElement.
// eslint-disable-next-line no-unused-vars
function apipeReference(data, dom) {
  'use strict'
  var graphqlMethods = /^(QUERY|MUTATION|SUBSCRIPTION)$/
  // `element(tag, className, text)` and `sanitized(className, markup)`: page.client.js's own.
  var element = dom.element
  var sanitized = dom.sanitized

  function card(name) { return document.getElementById('type-' + name) }
  function fieldsOf(name) { var node = card(name); return node ? node.querySelector('table.fields') : null }
  function baseType(expression) { return expression.replace(/[[\]!?\s]/g, '') }
  function isList(expression) { return /\[\]$/.test(expression) || /^\[/.test(expression) }

  /** A type as a reader says it: `Pet[]` is "list of Pet", and a declared type is a link to its card. */
  function typeLabel(expression) {
    var label = element('span', 'type-label')
    var base = baseType(expression)
    if (isList(expression)) label.appendChild(document.createTextNode('list of '))
    if (card(base)) {
      var link = element('a', 'chip type-chip', base)
      link.href = '#type-' + base
      label.appendChild(link)
    } else {
      label.appendChild(element('code', '', isList(expression) ? base : expression))
    }
    return label
  }

  /** `X[]` in a type cell of a cloned card table, read as "list of X". */
  function listOf(cell) {
    var last = cell.lastChild
    if (last && last.nodeType === 3 && /\[\]$/.test(last.nodeValue)) {
      last.nodeValue = last.nodeValue.slice(0, -2)
      cell.insertBefore(document.createTextNode('list of '), cell.firstChild)
    }
  }

  /** The fields of type `name` (a copy of its card's table); `open` lists the types already open above it. */
  function fieldTable(name, open) {
    var table = fieldsOf(name)
    if (!table) return null
    var copy = table.cloneNode(true)
    copy.className = 'fields reference'
    Array.prototype.forEach.call(copy.rows, function (row) {
      if (row.className === 'about') return
      listOf(row.cells[1])
      var link = row.cells[1].querySelector('a[href^="#type-"]')
      var target = link && link.getAttribute('href').slice(6)
      if (!target || !fieldsOf(target)) return
      var toggle = element('button', 'expand', '+')
      toggle.type = 'button'
      row.cells[0].insertBefore(toggle, row.cells[0].firstChild)
      if (open.indexOf(target) !== -1) {
        toggle.disabled = true
        toggle.textContent = '↻'
        toggle.title = target + ' is open above (recursive)'
        return
      }
      toggle.title = 'Show the fields of ' + target
      toggle.setAttribute('aria-expanded', 'false')
      var nested
      toggle.addEventListener('click', function () {
        if (!nested) {
          nested = element('tr', 'nested')
          var cell = nested.appendChild(element('td'))
          cell.colSpan = 3
          cell.appendChild(fieldTable(target, open.concat(target)))
          var after = row.nextElementSibling && row.nextElementSibling.className === 'about' ? row.nextElementSibling : row
          after.parentNode.insertBefore(nested, after.nextSibling)
        } else {
          nested.hidden = !nested.hidden
        }
        toggle.textContent = nested.hidden ? '+' : '−'
        toggle.setAttribute('aria-expanded', String(!nested.hidden))
      })
    })
    return copy
  }

  function valueText(value) { return typeof value === 'string' ? value : JSON.stringify(value) }

  /** The line under a param: its enum values and default. */
  function constraints(into, values, fallback) {
    if (values && values.length) {
      var line = into.appendChild(element('p', 'enum', 'One of '))
      values.forEach(function (value) { line.appendChild(element('code', '', valueText(value))); line.appendChild(document.createTextNode(' ')) })
    }
    if (fallback !== undefined) {
      var given = into.appendChild(element('p', 'default', 'Default '))
      given.appendChild(element('code', '', valueText(fallback)))
    }
  }

  /**
   * A name that may wrap between its words when it is long (over 24 characters: after a `_`, before a capital after a
   * small letter), and nowhere else: the rule of the rows' paths (wrap.ts's `pieceWords`).
   */
  function wrappingName(name) {
    var words = element('span')
    ;(name.length > 24 ? name.split(/(?<=_)|(?<=[a-z\d])(?=[A-Z])/) : [name]).forEach(function (word, index) {
      if (index > 0) words.appendChild(element('wbr'))
      words.appendChild(document.createTextNode(word))
    })
    return words
  }

  function params(list) {
    var table = element('table', 'params')
    var head = table.appendChild(element('tr'))
    ;['Name', 'In', 'Type', 'Required'].forEach(function (name) { head.appendChild(element('th', '', name)) })
    list.forEach(function (p) {
      var row = table.appendChild(element('tr'))
      row.appendChild(element('td', 'field-name')).appendChild(wrappingName(p.name))
      row.appendChild(element('td', '', p.in))
      var typeCell = row.appendChild(element('td'))
      typeCell.appendChild(p.type ? typeLabel(p.type) : document.createTextNode(''))
      if (p['x-format']) typeCell.appendChild(element('span', 'format', ' (' + p['x-format'] + ')'))
      row.appendChild(element('td', '', p.required || p.in === 'path' ? 'yes' : 'no'))
      var deprecated = p['x-deprecated'] === true
      if (p.description || deprecated || (p.enum && p.enum.length) || p.default !== undefined) {
        row.className = 'described'
        var cell = element('td', 'rich param-description')
        cell.colSpan = 4
        if (deprecated) cell.appendChild(element('p', 'deprecation', 'Deprecated'))
        if (p.description) cell.insertAdjacentHTML('beforeend', p.description)
        constraints(cell, p.enum, p.default)
        table.appendChild(element('tr')).appendChild(cell)
      }
    })
    return table
  }

  function exampleBlock(value, title) {
    var wrap = element('div', 'example')
    wrap.appendChild(element('p', 'example-title', title || 'Example'))
    wrap.appendChild(element('pre')).appendChild(element('code', '', typeof value === 'string' ? value : JSON.stringify(value, null, 2)))
    return wrap
  }

  /** A body: its type (unless `titled` says its heading names it), its fields, its description and its example, each when known. */
  function body(expression, description, example, titled) {
    var wrap = element('div', 'body')
    if (description) wrap.appendChild(sanitized('rich', description))
    if (expression) {
      // A response names its type on its summary line already (`titled`): not twice.
      if (!titled) wrap.appendChild(element('p', 'type-line')).appendChild(typeLabel(expression))
      var table = fieldTable(baseType(expression), [baseType(expression)])
      if (table) wrap.appendChild(table)
      var values = card(baseType(expression)) && card(baseType(expression)).querySelector('.values')
      if (values) wrap.appendChild(values.cloneNode(true))
    }
    if (example !== undefined) wrap.appendChild(exampleBlock(example))
    return wrap
  }

  /** The responses: the catalogue's `responses` when it has them, else the status codes and the response type. */
  function responses(e) {
    var list = e.responses
    if (!list) {
      var success = e.status.filter(function (code) { return code >= 200 && code < 300 })[0]
      list = e.status.map(function (code) { return {status: code, type: code === success ? e.response : undefined} })
      // No status to show it under: a GraphQL result is its `data`, a REST answer some 2XX.
      if (e.response && success === undefined) list.unshift({status: graphqlMethods.test(e.method) ? 'data' : '2XX', type: e.response})
    }
    if (!list.length) return null
    var wrap = element('div', 'responses')
    var opened = false
    list.forEach(function (r) {
      var item = wrap.appendChild(element('details', 'response'))
      var head = item.appendChild(element('summary'))
      var code = String(r.status)
      head.appendChild(element('span', 'chip status s' + code[0] + 'xx', code))
      if (r.type) head.appendChild(typeLabel(r.type))
      // Closed, a response still says what it is: its description's first words beside its status.
      if (r.description) head.appendChild(element('span', 'response-gist', sanitized('', r.description).textContent.trim()))
      if (!r.description && !r.type && !(r.headers && r.headers.length) && r.example === undefined) {
        item.className = 'response empty'
        return
      }
      if (!opened && (r.type || r.description)) item.open = opened = true
      var answer = item.appendChild(body(r.type, r.description, r.example, true))
      // Its headers after its description and before its fields, inside its body.
      if (r.headers && r.headers.length) {
        var headers = element('table', 'headers')
        var top = headers.appendChild(element('tr'))
        ;['Header', 'Type', 'Description'].forEach(function (name) { top.appendChild(element('th', '', name)) })
        r.headers.forEach(function (h) {
          var row = headers.appendChild(element('tr'))
          row.appendChild(element('td', 'field-name')).appendChild(wrappingName(h.name))
          var headerType = row.appendChild(element('td', '', h.type || ''))
          if (h['x-format']) headerType.appendChild(element('span', 'format', ' (' + h['x-format'] + ')'))
          // Sanitized when the page was built, as every description.
          row.appendChild(element('td', 'rich header-description')).innerHTML = h.description || ''
        })
        answer.insertBefore(headers, r.description ? answer.firstChild.nextSibling : answer.firstChild)
      }
    })
    return wrap
  }

  /** Sample strings by `format`; `binary` is curl's "the content of a file" (`-F 'photo=@file'`). */
  var formatSamples = {'date-time': '2024-01-31T12:00:00Z', date: '2024-01-31', time: '12:00:00Z', uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6', email: 'user@example.com', uri: 'https://example.com', url: 'https://example.com', binary: '@file'}

  function scalar(name, format) {
    // A free-form object, and a value of any type, as Swagger UI samples them: an empty object.
    if (name === 'object' || name === 'any') return {}
    if (/^(integer|int|int32|int64|number|float|double|Int|Float|long)$/.test(name)) return 0
    if (name === 'ID') return '1'
    if (/^(boolean|bool|Boolean)$/.test(name)) return true
    return name === 'string' && Object.prototype.hasOwnProperty.call(formatSamples, format) ? formatSamples[format] : 'string'
  }

  /** A sample value of a type, from its card: the required fields (or the first five when none is), 3 levels deep. */
  function sample(expression, depth, format) {
    var base = baseType(expression)
    var table = fieldsOf(base)
    var value
    if (table && depth < 3) {
      value = {}
      // A request never sends what only the server writes (`readOnly`), required or not.
      var rows = Array.prototype.filter.call(table.rows, function (row) { return row.className !== 'about' && !row.hasAttribute('data-read-only') })
      var required = rows.filter(function (row) { return row.cells[2].textContent === 'required' })
      ;(required.length ? required : depth === 0 ? rows.slice(0, 5) : []).forEach(function (row) {
        var given = row.getAttribute('data-sample')
        value[row.cells[0].textContent] = given !== null ? JSON.parse(given) : sample(row.cells[1].textContent, depth + 1, row.cells[1].getAttribute('data-format'))
      })
    } else if (card(base) && card(base).querySelector('.values code')) {
      value = card(base).querySelector('.values code').textContent
    } else {
      value = table ? {} : scalar(base, format)
    }
    return isList(expression) ? [value] : value
  }

  function shellQuote(text) { return "'" + text.replace(/'/g, "'\\''") + "'" }
  function given(p) { return p.example !== undefined ? p.example : p.default !== undefined ? p.default : p.enum && p.enum.length ? p.enum[0] : undefined }

  /**
   * A value as part of a URL. Some descriptions write their examples already encoded (`remaster%20track`): such a
   * value is decoded first, so that it is not encoded twice (`%2520`).
   */
  function urlPart(value) {
    var text = String(value)
    try {
      if (/%[0-9A-Fa-f]{2}/.test(text)) text = decodeURIComponent(text)
    } catch (error) {
      // Not a valid escape after all (`100%`): the text as written.
    }
    return encodeURIComponent(text)
  }

  /** Text for inside a POSIX shell's double quotes: `$`, `` ` ``, `"` and `\\` escaped. */
  function inDoubleQuotes(text) { return text.replace(/[$`"\\]/g, '\\$&') }

  /** One shell word from literal pieces (single-quoted) and `{variable}` pieces (`"$NAME"`, for the shell to fill in). */
  function shellWord(pieces) {
    var merged = pieces.reduce(function (list, piece) {
      if (typeof piece === 'string' && typeof list[list.length - 1] === 'string') list[list.length - 1] += piece
      else if (piece !== '') list.push(piece)
      return list
    }, [])
    return merged.map(function (piece) { return typeof piece === 'string' ? shellQuote(piece) : '"$' + piece.variable + '"' }).join('')
  }

  /**
   * The URL of a curl line, with the API keys sent in its query. A catalogue without a base URL gets `$BASE_URL`, a
   * variable for the reader to set, rather than a made-up host; a path param without an example stays `{name}`, for
   * the reader to fill in, and `--globoff` keeps curl from reading its braces as a URL pattern.
   */
  function urlParts(base, path, keys) {
    var pieces = base ? [base + path] : [{variable: 'BASE_URL'}, path]
    keys.filter(function (key) { return key.in === 'query' }).forEach(function (key, index) {
      pieces.push((index === 0 && path.indexOf('?') === -1 ? '?' : '&') + encodeURIComponent(key.name) + '=', {variable: key.variable})
    })
    return (/[{}[\]]/.test(path) ? ['--globoff'] : []).concat(shellWord(pieces))
  }

  /**
   * The API keys an `auth` sends, from `meta.x-auth-schemes` (`{type: 'apiKey', in: 'header', name: 'X-Api-Key'}`), each
   * with the shell variable that holds it: `API_KEY`, or one per scheme when it takes several (`API_KEY_APPID`).
   */
  function apiKeysOf(auth) {
    var schemes = data.authSchemes || {}
    var names = auth.split(' + ').filter(function (name) {
      var scheme = schemes[name]
      return scheme && /^(apiKey|httpApiKey)$/.test(scheme.type) && scheme.name && /^(header|query|cookie)$/.test(scheme.in)
    })
    return names.map(function (name) {
      return {in: schemes[name].in, name: schemes[name].name, variable: names.length === 1 ? 'API_KEY' : 'API_KEY_' + name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}
    })
  }

  /** A curl command for a REST or GraphQL endpoint, from the base URL, the path params and a sample body. */
  function curlText(e) {
    // An endpoint served elsewhere than the API (`servers` of its own) is called there.
    var base = (e.baseUrl || data.baseUrl || '').replace(/\/+$/, '')
    var keys = apiKeysOf(e.auth || '')
    var parts = ['curl']
    var bodyValue
    if (graphqlMethods.test(e.method)) {
      // The operation with its required arguments as variables: `mutation($input: NewOrder!) { placeOrder(input: $input) }`.
      var signature = /^\s*([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?/.exec(e.path) || [e.path, e.path, '']
      var declared = []
      var passed = []
      var variables = {}
      ;(signature[2] || '').split(',').forEach(function (argument) {
        var match = /^\s*([A-Za-z_]\w*)\s*:\s*([^=]+?)\s*(?:=.*)?$/.exec(argument)
        if (!match) return
        var param = e.params.filter(function (p) { return p.in === 'arg' && p.name === match[1] })[0]
        var value = param && given(param)
        if (value === undefined && !/!$/.test(match[2])) return
        declared.push('$' + match[1] + ': ' + match[2])
        passed.push(match[1] + ': $' + match[1])
        variables[match[1]] = value !== undefined ? value : sample(match[2], 1)
      })
      var selection = e.response && fieldsOf(baseType(e.response)) ? ' { __typename }' : ''
      var keyword = e.method === 'MUTATION' ? 'mutation' : 'query'
      bodyValue = {query: keyword + (declared.length ? '(' + declared.join(', ') + ')' : '') + ' { ' + signature[1] + (passed.length ? '(' + passed.join(', ') + ')' : '') + selection + ' }'}
      if (declared.length) bodyValue.variables = variables
      parts.push('-X POST')
      parts.push.apply(parts, urlParts(base, '', keys))
    } else {
      var path = e.path.replace(/\{([^}]+)\}/g, function (whole, key) {
        var param = e.params.filter(function (p) { return p.in === 'path' && p.name === key })[0]
        var value = param && given(param)
        return value !== undefined ? urlPart(value) : whole
      })
      var query = e.params.filter(function (p) { return p.in === 'query' && p.required }).map(function (p) {
        var value = given(p)
        return encodeURIComponent(p.name) + '=' + urlPart(value !== undefined ? value : sample(p.type || 'string', 1, p['x-format']))
      })
      if (e.method !== 'GET') parts.push('-X ' + e.method)
      parts.push.apply(parts, urlParts(base, path + (query.length ? '?' + query.join('&') : ''), keys))
      e.params.filter(function (p) { return p.in === 'header' && p.required }).forEach(function (p) {
        var value = given(p)
        parts.push('-H ' + shellQuote(p.name + ': ' + (value !== undefined ? valueText(value) : '…')))
      })
      if (e.requestExample !== undefined) bodyValue = e.requestExample
      else if (e.request) bodyValue = sample(e.request, 0)
    }
    // Double quotes, so that the shell fills in the reader's variables; names no shell sets on its own (`$USER` does).
    if (/^bearer|oauth2|openid/i.test(e.auth || '')) parts.push('-H "Authorization: Bearer $API_TOKEN"')
    else if (/^basic$/i.test(e.auth || '')) parts.push('-u "$API_USER:$API_PASSWORD"')
    keys.forEach(function (key) {
      if (key.in === 'header') parts.push('-H "' + inDoubleQuotes(key.name) + ': $' + key.variable + '"')
      else if (key.in === 'cookie') parts.push('--cookie "' + inDoubleQuotes(key.name) + '=$' + key.variable + '"')
    })
    if (bodyValue !== undefined) parts.push.apply(parts, bodyParts(bodyValue, e.requestMedia))
    return parts.join(' ')
  }

  /** The body of a curl line as its media type wants it: JSON, form fields (`-F`, `--data-urlencode`), or a file. */
  function bodyParts(value, media) {
    var fields = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : null
    if (!media || /json/i.test(media)) return ["-H 'Content-Type: application/json'", '--data ' + shellQuote(typeof value === 'string' ? value : JSON.stringify(value))]
    if (fields && /^multipart\/form-data/i.test(media)) return fields.map(function (key) { return '-F ' + shellQuote(key + '=' + valueText(value[key])) })
    if (fields && /^application\/x-www-form-urlencoded/i.test(media)) return fields.map(function (key) { return '--data-urlencode ' + shellQuote(key + '=' + valueText(value[key])) })
    return ['-H ' + shellQuote('Content-Type: ' + media), '--data-binary @file']
  }

  function curl(e) {
    if (e.method === 'EVENT' || e.method === 'SUBSCRIPTION') return null
    var wrap = element('div', 'curl')
    var text = curlText(e)
    var code = wrap.appendChild(element('pre')).appendChild(element('code', '', text))
    var copy = wrap.appendChild(element('button', 'chip copy', 'Copy'))
    copy.type = 'button'
    copy.addEventListener('click', function () {
      var done = function () { copy.textContent = 'Copied' }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { select(code) })
      } else {
        select(code)
      }
    })
    return wrap
  }

  function select(node) {
    var range = document.createRange()
    range.selectNodeContents(node)
    var selection = window.getSelection()
    selection.removeAllRanges()
    selection.addRange(range)
  }

  return {params: params, body: body, responses: responses, curl: curl, curlText: curlText, baseType: baseType}
}
