// A paste as numbered lines: <span class="line" id="L12"><a class="ln" href="#L12" data-line="12"></a>…text…\n</span>.
// Built from text nodes and the highlighter's token tree only, never from HTML: whatever the paste holds stays
// text. The numbers are drawn by CSS from data-line, so the <pre>'s text is exactly the paste (copying a
// selection never takes them along).

/**
 * The lines of {@code text}; with {@code tree} (highlight.js's token tree, {scope, children: [string | node]},
 * whose strings together are exactly the text) each token in a span of highlight.js's classes, reopened on
 * every line that a token (a block comment, a string) spans, so that each line stands alone.
 */
export function highlightedLines(text, tree) {
  const fragment = document.createDocumentFragment();
  const scopes = []; // the open tokens' scopes, outermost first
  let parents = []; // the current line, then the open tokens' spans in it
  let number = 0;
  let lineEnded = true; // the last line ended with '\n': the next content starts a new line

  const startLine = () => {
    number += 1;
    const line = document.createElement('span');
    line.className = 'line';
    line.id = `L${number}`;
    const anchor = document.createElement('a');
    anchor.className = 'ln';
    anchor.href = `#L${number}`;
    anchor.dataset.line = String(number);
    anchor.setAttribute('aria-label', `Line ${number}`);
    line.append(anchor);
    fragment.append(line);
    parents = [line];
    for (const scope of scopes) {
      parents.push(tokenSpan(scope));
      parents.at(-2).append(parents.at(-1));
    }
    lineEnded = false;
  };

  const addText = (chunk) => {
    let from = 0;
    while (from < chunk.length) {
      if (lineEnded) {
        startLine();
      }
      const end = chunk.indexOf('\n', from);
      const to = end === -1 ? chunk.length : end + 1;
      parents.at(-1).append(document.createTextNode(chunk.slice(from, to)));
      lineEnded = end !== -1;
      from = to;
    }
  };

  const walk = (node) => {
    for (const child of node.children ?? []) {
      if (typeof child === 'string') {
        addText(child);
      } else if (typeof child?.scope === 'string') {
        scopes.push(child.scope);
        if (!lineEnded) {
          parents.push(tokenSpan(child.scope));
          parents.at(-2).append(parents.at(-1));
        }
        walk(child);
        scopes.pop();
        if (parents.length > scopes.length + 1) {
          parents.pop();
        }
      } else if (child) {
        walk(child); // a node without a scope (an embedded language's root): its children only
      }
    }
  };

  walk(tree ?? { children: [text] });
  return fragment;
}

/** highlight.js's class names for a scope ("title.function" → "hljs-title function_"), as its themes expect. */
function tokenSpan(scope) {
  const span = document.createElement('span');
  const classes = scope.startsWith('language:')
    ? [`language-${scope.slice('language:'.length)}`]
    : scope.split('.').map((part, i) => (i === 0 ? `hljs-${part}` : `${part}${'_'.repeat(i)}`));
  span.classList.add(...classes.filter((name) => /^[A-Za-z0-9_-]+$/.test(name)));
  return span;
}

/** The lines an address names: #L12 → {first: 12, last: 12}, #L12-L20 (or #L12-20) → {first: 12, last: 20}. */
export function selectedLines(hash) {
  const match = /^#L([1-9][0-9]{0,6})(?:-L?([1-9][0-9]{0,6}))?$/.exec(hash);
  if (match === null) {
    return null;
  }
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return { first: Math.min(first, last), last: Math.max(first, last) };
}
