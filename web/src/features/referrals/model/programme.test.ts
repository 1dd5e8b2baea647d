// The programme's sentences come from the API's numbers, never fixed amounts.
import { describe, expect, it } from 'vitest';
import { capSentence, programmeRules, rewardSentence } from './programme';

const numbers = { referrerReward: 500, friendReward: 500, monthlyCap: 10 };

describe('the programme in words', () => {
  it('says both get the same reward when the amounts are equal', () => {
    expect(rewardSentence(numbers)).toBe(
      'You and your friend each get $5.00 in your CreditCard Wallet when your friend makes their first payment.',
    );
  });

  it('follows the amounts the API gives', () => {
    expect(rewardSentence({ ...numbers, referrerReward: 1000, friendReward: 250 })).toBe(
      'You get $10.00 and your friend gets $2.50 in your CreditCard Wallets when your friend makes their first payment.',
    );
    expect(rewardSentence({ ...numbers, referrerReward: 750, friendReward: 750 })).toContain('each get $7.50');
  });

  it('states the monthly cap, one reward per friend, none for oneself, and the review', () => {
    expect(capSentence({ ...numbers, monthlyCap: 1 })).toBe('You can be rewarded for up to 1 friend each month.');
    const rules = programmeRules({ ...numbers, monthlyCap: 7 });
    expect(rules[0]).toBe('You can be rewarded for up to 7 friends each month.');
    expect(rules.join(' ')).toMatch(/one reward/);
    expect(rules.join(' ')).toMatch(/Inviting yourself .* no reward/);
    expect(rules.join(' ')).toMatch(/held for review/);
  });
});
