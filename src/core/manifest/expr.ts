// The manifest's expression language: numbers and the case's names, + - * / %, comparisons,
// && || !, a ? b : c, and a few functions. Parsed once into a tree, evaluated with a scope;
// nothing is ever handed to eval or Function.
//
// Semantics (docs/kernel-manifest.md states them for users):
// - every value is an IEEE double; `/` is exact real division (7 / 2 = 3.5: write floor() or
//   ceil() to get an integer), `%` is floored modulo (the result has the divisor's sign);
// - a division or modulo by zero, an unknown name or function, or a result that is not finite
//   is an error, never NaN;
// - comparisons, && || and ! give 1 or 0; any non-zero value is true;
// - where an integer is needed (u32/i32 fields, dispatch, sizes) the caller checks the value is one.

export class ExprError extends Error {
  override name = 'ExprError';
  constructor(
    message: string,
    /** 1-based column in the expression text, 0 when not tied to one place. */
    readonly column = 0,
  ) {
    super(message);
  }
}

export type Expr =
  | { readonly kind: 'num'; readonly value: number; readonly at: number }
  | { readonly kind: 'name'; readonly name: string; readonly at: number }
  | { readonly kind: 'unary'; readonly op: '-' | '!'; readonly arg: Expr; readonly at: number }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr; readonly at: number }
  | { readonly kind: 'cond'; readonly test: Expr; readonly then: Expr; readonly else: Expr; readonly at: number }
  | { readonly kind: 'call'; readonly fn: string; readonly args: readonly Expr[]; readonly at: number };

type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/**
 * Bounds on one expression, checked while it is read so nothing recurses or allocates without
 * end: a 10 MB `n+0+0…` or 1000 nested `(` is a named refusal, not a stack overflow. A real
 * manifest's longest expression is under 100 characters and nests 3 deep.
 */
export const EXPR_CAPS = Object.freeze({ chars: 4096, depth: 64, nodes: 1024 });

/** Functions and how many arguments each takes ([min, max]). */
export const FUNCTIONS: Readonly<Record<string, readonly [number, number]>> = Object.freeze({
  ceil: [1, 1],
  floor: [1, 1],
  abs: [1, 1],
  min: [1, 16],
  max: [1, 16],
  /** align(x, a): the smallest multiple of a that is ≥ x (a > 0). */
  align: [2, 2],
});

interface Token {
  readonly kind: 'num' | 'name' | 'op' | 'end';
  readonly text: string;
  readonly at: number; // 1-based column
}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '+', '-', '*', '/', '%', '<', '>', '!', '(', ')', ',', '?', ':'];

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const at = i + 1;
    const num = /^(0x[0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/.exec(src.slice(i));
    if (num) {
      if (/^[A-Za-z_]/.test(src.slice(i + num[0].length))) throw new ExprError(`malformed number '${src.slice(i).match(/^[\w.]+/)![0]}' at column ${at}`, at);
      out.push({ kind: 'num', text: num[0], at });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      out.push({ kind: 'name', text: name[0], at });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`unexpected character '${ch}' at column ${at}`, at);
    out.push({ kind: 'op', text: op, at });
    i += op.length;
  }
  out.push({ kind: 'end', text: '', at: src.length + 1 });
  return out;
}

const BINARY_LEVELS: readonly (readonly BinaryOp[])[] = [['||'], ['&&'], ['==', '!=', '<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];

/** Parses an expression; throws ExprError with the column of the first thing it cannot read. */
export function parseExpr(src: string): Expr {
  if (typeof src !== 'string') throw new ExprError(`an expression must be a string or a number, got ${typeof src}`);
  if (src.length > EXPR_CAPS.chars) throw new ExprError(`the expression is ${src.length} characters long, over the cap of ${EXPR_CAPS.chars}`);
  const tokens = tokenize(src);
  let pos = 0;
  let depth = 0;
  let nodes = 0;
  /** Every nesting (parentheses, a call, ?:, unary - and !) goes through here: the depth cap. */
  const nested = <T>(at: number, read: () => T): T => {
    if (++depth > EXPR_CAPS.depth) throw new ExprError(`the expression nests deeper than ${EXPR_CAPS.depth} levels at column ${at} (parentheses, calls, ?: and unary - or ! each nest)`, at);
    try {
      return read();
    } finally {
      depth--;
    }
  };
  const node = <T extends Expr>(e: T): T => {
    if (++nodes > EXPR_CAPS.nodes) throw new ExprError(`the expression has more than ${EXPR_CAPS.nodes} terms and operators (at column ${e.at})`, e.at);
    return e;
  };
  const peek = () => tokens[pos];
  const next = () => tokens[pos++];
  const describe = (t: Token) => (t.kind === 'end' ? 'the end' : `'${t.text}' at column ${t.at}`);
  const expectOp = (text: string) => {
    const t = next();
    if (t.kind !== 'op' || t.text !== text) throw new ExprError(`expected '${text}' but found ${describe(t)}`, t.at);
  };

  const ternary = (): Expr =>
    nested(peek().at, () => {
      const test = binary(0);
      const t = peek();
      if (t.kind === 'op' && t.text === '?') {
        next();
        const then = ternary();
        expectOp(':');
        return node({ kind: 'cond', test, then, else: ternary(), at: t.at });
      }
      return test;
    });

  const binary = (level: number): Expr => {
    if (level === BINARY_LEVELS.length) return unary();
    const ops = BINARY_LEVELS[level];
    let left = binary(level + 1);
    const comparison = level === 2;
    for (;;) {
      const t = peek();
      if (t.kind !== 'op' || !ops.includes(t.text as BinaryOp)) return left;
      next();
      left = node({ kind: 'binary', op: t.text as BinaryOp, left, right: binary(level + 1), at: t.at });
      const after = peek();
      // a < b < c reads as (a < b) < c in C and surprises everyone: refuse it.
      if (comparison && after.kind === 'op' && ops.includes(after.text as BinaryOp)) throw new ExprError(`comparisons do not chain: parenthesize ${describe(after)}`, after.at);
    }
  };

  const unary = (): Expr => {
    const t = peek();
    if (t.kind === 'op' && (t.text === '-' || t.text === '!')) {
      next();
      const op = t.text as '-' | '!';
      return nested(t.at, () => node({ kind: 'unary', op, arg: unary(), at: t.at }));
    }
    return primary();
  };

  const primary = (): Expr => {
    const t = next();
    if (t.kind === 'num') {
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new ExprError(`number '${t.text}' at column ${t.at} is out of range`, t.at);
      return node({ kind: 'num', value, at: t.at });
    }
    if (t.kind === 'name') {
      const open = peek();
      if (open.kind === 'op' && open.text === '(') {
        const arity = FUNCTIONS[t.text];
        if (!arity) throw new ExprError(`unknown function '${t.text}' at column ${t.at} (functions: ${Object.keys(FUNCTIONS).join(', ')})`, t.at);
        next();
        const args: Expr[] = [];
        if (!(peek().kind === 'op' && peek().text === ')')) {
          args.push(ternary());
          while (peek().kind === 'op' && peek().text === ',') {
            next();
            args.push(ternary());
          }
        }
        expectOp(')');
        if (args.length < arity[0] || args.length > arity[1]) {
          const want = arity[0] === arity[1] ? `${arity[0]}` : `${arity[0]} to ${arity[1]}`;
          throw new ExprError(`${t.text}() at column ${t.at} takes ${want} argument${arity[1] === 1 ? '' : 's'}, got ${args.length}`, t.at);
        }
        return node({ kind: 'call', fn: t.text, args, at: t.at });
      }
      return node({ kind: 'name', name: t.text, at: t.at });
    }
    if (t.kind === 'op' && t.text === '(') {
      const inner = ternary();
      expectOp(')');
      return inner;
    }
    throw new ExprError(`expected a number, a name or '(' but found ${describe(t)}`, t.at);
  };

  if (peek().kind === 'end') throw new ExprError('the expression is empty', 1);
  const tree = ternary();
  const rest = peek();
  if (rest.kind !== 'end') throw new ExprError(`unexpected ${describe(rest)}`, rest.at);
  return tree;
}

/** The names an expression reads (for checking a manifest before any case exists). */
export function namesIn(e: Expr, into: Set<string> = new Set()): Set<string> {
  switch (e.kind) {
    case 'num':
      break;
    case 'name':
      into.add(e.name);
      break;
    case 'unary':
      namesIn(e.arg, into);
      break;
    case 'binary':
      namesIn(e.left, into);
      namesIn(e.right, into);
      break;
    case 'cond':
      namesIn(e.test, into);
      namesIn(e.then, into);
      namesIn(e.else, into);
      break;
    case 'call':
      e.args.forEach((a) => namesIn(a, into));
      break;
  }
  return into;
}

export type Scope = ReadonlyMap<string, number>;

function finite(x: number, what: string, at: number): number {
  if (!Number.isFinite(x)) throw new ExprError(`${what} at column ${at} gives ${x}`, at);
  return x;
}

/** Evaluates a parsed expression; unknown names and divisions by zero are ExprErrors. */
export function evaluate(e: Expr, scope: Scope): number {
  switch (e.kind) {
    case 'num':
      return e.value;
    case 'name': {
      const v = scope.get(e.name);
      if (v === undefined) {
        const known = [...scope.keys()].sort().join(', ');
        throw new ExprError(`unknown name '${e.name}' at column ${e.at} (names here: ${known})`, e.at);
      }
      return v;
    }
    case 'unary': {
      const v = evaluate(e.arg, scope);
      return e.op === '-' ? -v : v === 0 ? 1 : 0;
    }
    case 'cond':
      return evaluate(e.test, scope) !== 0 ? evaluate(e.then, scope) : evaluate(e.else, scope);
    case 'binary': {
      if (e.op === '&&') return evaluate(e.left, scope) !== 0 && evaluate(e.right, scope) !== 0 ? 1 : 0;
      if (e.op === '||') return evaluate(e.left, scope) !== 0 || evaluate(e.right, scope) !== 0 ? 1 : 0;
      const a = evaluate(e.left, scope);
      const b = evaluate(e.right, scope);
      switch (e.op) {
        case '+':
          return finite(a + b, `${a} + ${b}`, e.at);
        case '-':
          return finite(a - b, `${a} - ${b}`, e.at);
        case '*':
          return finite(a * b, `${a} * ${b}`, e.at);
        case '/':
          if (b === 0) throw new ExprError(`division by zero at column ${e.at} (${a} / 0)`, e.at);
          return finite(a / b, `${a} / ${b}`, e.at);
        case '%':
          if (b === 0) throw new ExprError(`modulo by zero at column ${e.at} (${a} % 0)`, e.at);
          return a - b * Math.floor(a / b);
        case '==':
          return a === b ? 1 : 0;
        case '!=':
          return a !== b ? 1 : 0;
        case '<':
          return a < b ? 1 : 0;
        case '<=':
          return a <= b ? 1 : 0;
        case '>':
          return a > b ? 1 : 0;
        case '>=':
          return a >= b ? 1 : 0;
      }
      throw new ExprError(`unknown operator '${e.op}'`, e.at);
    }
    case 'call': {
      const args = e.args.map((a) => evaluate(a, scope));
      switch (e.fn) {
        case 'ceil':
          return Math.ceil(args[0]);
        case 'floor':
          return Math.floor(args[0]);
        case 'abs':
          return Math.abs(args[0]);
        case 'min':
          return Math.min(...args);
        case 'max':
          return Math.max(...args);
        case 'align': {
          const [x, a] = args;
          if (!(a > 0)) throw new ExprError(`align() at column ${e.at} needs a positive alignment, got ${a}`, e.at);
          return Math.ceil(x / a) * a;
        }
      }
      throw new ExprError(`unknown function '${e.fn}' at column ${e.at}`, e.at);
    }
  }
}

/** An expression written as a JSON number or string: numbers pass through as literals. */
export function parseExprValue(v: unknown): Expr {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ExprError(`${v} is not a finite number`);
    return { kind: 'num', value: v, at: 1 };
  }
  if (typeof v !== 'string') throw new ExprError(`an expression must be a string or a number, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  return parseExpr(v);
}
