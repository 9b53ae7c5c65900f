import {
  jobCost,
  COST_RULE,
  CREDITS_PER_FURTHER_HOP,
  deepestAffordableDepth,
  MINIMUM_CHARGE,
} from '../../src/screening/pricing';

describe('jobCost', () => {
  test('when the minimum charge is read, then it is 1 credit', () => {
    // Arrange / Act / Assert
    expect(MINIMUM_CHARGE).toBe(1);
  });

  test.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 3],
    [5, 5],
  ])('when the crawl reached depth %i, then the analysis costs %i credits', (depth, expected) => {
    // Arrange / Act
    const cost = jobCost(depth);

    // Assert
    expect(cost).toBe(expected);
  });

  test('when the depth is fractional, then it is rounded down before charging', () => {
    // Arrange / Act
    const cost = jobCost(2.9);

    // Assert
    expect(cost).toBe(2);
  });

  test('when the depth is negative, then only the minimum is charged', () => {
    // Arrange / Act
    const cost = jobCost(-3);

    // Assert
    expect(cost).toBe(MINIMUM_CHARGE);
  });
});

describe('deepestAffordableDepth', () => {
  test('when the credits cover the planned depth, then the planned depth is returned', () => {
    // Arrange / Act
    const depth = deepestAffordableDepth(100, 3);

    // Assert
    expect(depth).toBe(3);
  });

  test('when the credits cover exactly the planned depth, then the planned depth is returned', () => {
    // Arrange / Act
    const depth = deepestAffordableDepth(3, 3);

    // Assert
    expect(depth).toBe(3);
  });

  test('when the credits fall short of the planned depth, then the deepest affordable depth is returned', () => {
    // Arrange / Act
    const depth = deepestAffordableDepth(2, 4);

    // Assert
    expect(depth).toBe(2);
    expect(jobCost(depth)).toBeLessThanOrEqual(2);
    expect(jobCost(depth + 1)).toBeGreaterThan(2);
  });

  test('when only the minimum charge is affordable, then depth 1 (covered by the minimum) is returned', () => {
    // Arrange / Act
    const depth = deepestAffordableDepth(1, 3);

    // Assert
    expect(depth).toBe(1);
  });

  test('when the planned depth is 0 and the minimum fits, then 0 is returned', () => {
    // Arrange / Act
    const depth = deepestAffordableDepth(1, 0);

    // Assert
    expect(depth).toBe(0);
  });

  test.each([0, 0.5, -1])(
    'when the balance is %p credits, then not even the minimum fits and -1 is returned',
    (credits) => {
      // Arrange / Act
      const depth = deepestAffordableDepth(credits, 3);

      // Assert
      expect(depth).toBe(-1);
    },
  );
});

describe('COST_RULE', () => {
  test('when the rule is read, then it states the minimum and the price of a further hop in words', () => {
    // Arrange / Act / Assert
    expect(COST_RULE).toBe(
      '1 credit (lists and the target itself) + 1 credit per exposure hop reached beyond the first level',
    );
    expect(jobCost(3) - jobCost(2)).toBe(CREDITS_PER_FURTHER_HOP);
  });
});
