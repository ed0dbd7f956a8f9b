import { describe, expect, it } from 'vitest';
import { caught } from '../../../test/fixtures/caught';
import { evaluate, ExprError, namesIn, parseExpr, parseExprValue } from './expr';

const scope = new Map<string, number>([
  ['ne0', 4096],
  ['ne1', 37],
  ['nb01', 16384],
  ['eps', 1e-6],
]);
const ev = (src: string, s = scope) => evaluate(parseExpr(src), s);

const exprError = (fn: () => unknown): ExprError => caught(fn, ExprError);

describe('expression language', () => {
  it('reads numbers: integers, decimals, exponents, hex', () => {
    expect(ev('42')).toBe(42);
    expect(ev('2.5')).toBe(2.5);
    expect(ev('.5')).toBe(0.5);
    expect(ev('1e-6')).toBe(1e-6);
    expect(ev('0x100')).toBe(256);
  });

  it('follows precedence: * / % before + -, unary minus binds tightest', () => {
    expect(ev('1 + 2 * 3')).toBe(7);
    expect(ev('(1 + 2) * 3')).toBe(9);
    expect(ev('10 - 4 - 3')).toBe(3); // left-associative
    expect(ev('-2 * 3')).toBe(-6);
    expect(ev('2 * -3')).toBe(-6);
    expect(ev('nb01 / 4')).toBe(4096);
  });

  it('divides exactly and takes a floored modulo', () => {
    expect(ev('7 / 2')).toBe(3.5);
    expect(ev('floor(7 / 2)')).toBe(3);
    expect(ev('ceil(ne1 / 4)')).toBe(10); // 37 / 4 = 9.25
    expect(ev('ne1 % 4')).toBe(1);
    expect(ev('-7 % 3')).toBe(2); // floored: sign of the divisor
    expect(ev('7 % -3')).toBe(-2);
  });

  it('compares and combines to 1 or 0, short-circuiting && and ||', () => {
    expect(ev('ne0 % 4 == 0')).toBe(1);
    expect(ev('ne1 % 4 == 0')).toBe(0);
    expect(ev('ne0 >= 4096 && ne1 < 38')).toBe(1);
    expect(ev('!(ne0 > 1)')).toBe(0);
    expect(ev('ne1 > 100 || ne0 != 4095')).toBe(1);
    // the right side is never evaluated, so its division by zero does not fire
    expect(ev('0 && 1 / 0')).toBe(0);
    expect(ev('1 || 1 / 0')).toBe(1);
  });

  it('evaluates the ternary lazily and right-associatively', () => {
    expect(ev('ne1 > 32 ? 2 : 1')).toBe(2);
    expect(ev('ne1 > 64 ? 3 : ne1 > 32 ? 2 : 1')).toBe(2);
    expect(ev('ne1 > 64 ? 1 / 0 : 5')).toBe(5);
  });

  it('has ceil, floor, abs, min, max, align', () => {
    expect(ev('min(ne0, 256, 1000)')).toBe(256);
    expect(ev('max(1, ne1)')).toBe(37);
    expect(ev('abs(-3)')).toBe(3);
    expect(ev('align(ne1, 16)')).toBe(48);
    expect(ev('align(32, 16)')).toBe(32);
  });

  it('lists the names an expression reads', () => {
    expect([...namesIn(parseExpr('ceil(ne0 / wg) * max(ne1, eps) + 1')).values()].sort()).toEqual(['eps', 'ne0', 'ne1', 'wg']);
  });

  it('takes a JSON number as a literal', () => {
    expect(evaluate(parseExprValue(256), scope)).toBe(256);
    expect(exprError(() => parseExprValue(true)).message).toMatch(/must be a string or a number, got boolean/);
    expect(exprError(() => parseExprValue(null)).message).toMatch(/got null/);
  });

  it('refuses what does not parse, naming the column', () => {
    const cases: [string, RegExp, number][] = [
      ['', /empty/, 1],
      ['ne0 +', /expected a number, a name or '\(' but found the end/, 6],
      ['(ne0 + 1', /expected '\)' but found the end/, 9],
      ['ne0 $ 2', /unexpected character '\$' at column 5/, 5],
      ['ne0 ne1', /unexpected 'ne1' at column 5/, 5],
      ['sqrt(ne0)', /unknown function 'sqrt'/, 1],
      ['ceil(1, 2)', /ceil\(\) at column 1 takes 1 argument, got 2/, 1],
      ['1 < ne0 < 3', /comparisons do not chain/, 9],
      ['4x', /malformed number '4x'/, 1],
      ['eval(1)', /unknown function 'eval'/, 1], ['eval("x")', /unexpected character '"' at column 6/, 6],
      ['ne0 = 1', /unexpected character '='/, 5],
    ];
    for (const [src, msg, col] of cases) {
      const e = exprError(() => parseExpr(src));
      expect(e.message, src).toMatch(msg);
      expect(e.column, src).toBe(col);
    }
  });

  it('refuses what does not evaluate: unknown names, division by zero, overflow', () => {
    expect(exprError(() => ev('ne9 + 1')).message).toMatch(/unknown name 'ne9' at column 1 \(names here: eps, nb01, ne0, ne1\)/);
    expect(exprError(() => ev('ne0 / (ne1 - 37)')).message).toMatch(/division by zero at column 5 \(4096 \/ 0\)/);
    expect(exprError(() => ev('ne0 % 0')).message).toMatch(/modulo by zero/);
    expect(exprError(() => ev('1e308 * 10')).message).toMatch(/gives Infinity/);
    expect(exprError(() => ev('align(3, 0)')).message).toMatch(/positive alignment/);
  });
});
