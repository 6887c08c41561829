import { describe, expect, test } from 'vitest';
import { queryTimeKeeper } from '@/server/integrations/wikidata';

/** A keeper on a clock the test moves: a budget of 100 ms of query time in a window of 1 s. */
function keeperAt() {
  let t = 0;
  const keeper = queryTimeKeeper({ perMinuteMs: 100, windowMs: 1_000 }, () => t);
  return { keeper, at: (ms: number) => (t = ms) };
}

describe("the query-time keeper (WDQS's budget, by measure)", () => {
  test('lets a query start at once while it and the window fit the budget', () => {
    const { keeper, at } = keeperAt();
    expect(keeper.waitFor()).toBe(0);
    keeper.add(30);
    at(50);
    expect(keeper.waitFor()).toBe(0); // 30 spent + about 30 to come ≤ 100
  });

  test('holds a query back that would take the window over the budget, though the window alone is under it', () => {
    const { keeper, at } = keeperAt();
    keeper.add(60); // at 0
    at(10);
    // 60 spent is under 100, but the next query costs about as much as the last: 120 would be over.
    expect(keeper.waitFor()).toBe(990);
  });

  test('waits only until enough of the oldest queries have left the window', () => {
    const { keeper, at } = keeperAt();
    keeper.add(20); // at 0
    at(300);
    keeper.add(20);
    at(600);
    keeper.add(40);
    at(700);
    // 80 spent + 40 to come: the query at 0 must leave (at 1000); then 60 + 40 fits.
    expect(keeper.waitFor()).toBe(300);
    at(1_000);
    expect(keeper.waitFor()).toBe(0);
  });

  test('forgets queries older than the window', () => {
    const { keeper, at } = keeperAt();
    keeper.add(90);
    at(1_001);
    expect(keeper.waitFor()).toBe(0);
  });
});
