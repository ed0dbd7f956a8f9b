import { describe, expect, expectTypeOf, it } from 'vitest';
import { count, list, nullable, num, obj, oneOf, optional, record, str, type Infer } from './schema';

const point = obj(
  {
    name: str(8),
    kind: oneOf(['a', 'b']),
    xs: list(count, 3),
    w: nullable(num),
    tags: optional(record(num, 2, 4)),
    extra: optional(list(num, 4), (v) => v.length === 0),
  },
  (v, p) => ((v.xs as number[]).length === 0 ? `${p}xs: empty` : null),
);

describe('schema combinators', () => {
  it('infers the type: required, nullable and optional fields', () => {
    type Point = Infer<typeof point>;
    expectTypeOf<Point['kind']>().toEqualTypeOf<'a' | 'b'>();
    expectTypeOf<Point['xs']>().toEqualTypeOf<readonly number[]>();
    expectTypeOf<Point['w']>().toEqualTypeOf<number | null>();
    expectTypeOf<Point>().toHaveProperty('tags');
    expectTypeOf<{ name: string; kind: 'a'; xs: number[]; w: null }>().toMatchTypeOf<Point>();
  });

  it('names the path and the rule of the first field that is wrong', () => {
    const good = { name: 'p', kind: 'a', xs: [1, 2], w: null };
    expect(point.check(good, '')).toBeNull();
    expect(point.check({ ...good, name: 'ninechars' }, 'pt')).toBe('pt.name: 9 characters, over the 8-character cap');
    expect(point.check({ ...good, kind: 'c' }, '')).toBe("kind: expected one of a, b, got 'c'");
    expect(point.check({ ...good, xs: [1, -1] }, '')).toBe('xs[1]: expected a whole number ≥ 0, got number -1');
    expect(point.check({ ...good, xs: [1, 2, 3, 4] }, '')).toBe('xs: 4 items, over the cap of 3');
    expect(point.check({ ...good, w: undefined }, '')).toBe('w: expected a finite number, got nothing');
    expect(point.check({ ...good, tags: { a: 1, b: 2, c: 3 } }, '')).toBe('tags: 3 keys, over the cap of 2');
    expect(point.check({ ...good, tags: { toString: 1 } }, '')).toBe("tags: key 'toString' names an inherited object member, not data");
    expect(point.check({ ...good, tags: { abcde: 1 } }, '')).toBe('tags: a key of 5 characters, over the 4-character cap');
    expect(point.check({ ...good, xs: [] }, '')).toBe('xs: empty');
    expect(point.check([], '')).toBe('the result: expected an object, got a list');
  });

  it('reads own properties only: an inherited field is absent', () => {
    const proto = { name: 'p', kind: 'a', xs: [1], w: 1 };
    expect(point.check(Object.create(proto), '')).toBe('name: expected a string, got nothing');
  });

  it('projects the declared fields only, in declaration order, dropping absent and omitted optionals', () => {
    const value = { w: 2, xs: [3], kind: 'b' as const, name: 'q', secret: 'wgsl text', extra: [] as number[], tags: undefined };
    const json = point.project(value);
    expect(json).toEqual({ name: 'q', kind: 'b', xs: [3], w: 2 });
    expect(Object.keys(json)).toEqual(['name', 'kind', 'xs', 'w']);
    expect(point.project({ ...value, extra: [1.5], tags: { k: 1 } })).toEqual({ name: 'q', kind: 'b', xs: [3], w: 2, tags: { k: 1 }, extra: [1.5] });
  });

  it('projects nested objects in lists and records, and keeps null', () => {
    const outer = obj({ items: list(obj({ id: count }), 10), byName: record(obj({ id: count }), 10, 8), maybe: nullable(obj({ id: count })) });
    const json = outer.project({ items: [{ id: 1, junk: 1 } as { id: number }], byName: { a: { id: 2, junk: 2 } as { id: number } }, maybe: null });
    expect(json).toEqual({ items: [{ id: 1 }], byName: { a: { id: 2 } }, maybe: null });
  });
});
