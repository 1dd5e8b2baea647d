//! The programme's rules in words, from the numbers the API gives (rewards in cents, the monthly
//! cap): nothing here is a fixed amount, so a change on the server changes every screen.
import { formatMoney } from '../../../lib/format/money';
import type { ReferralInfo } from '../api/types';

type Numbers = Pick<ReferralInfo, 'referrerReward' | 'friendReward' | 'monthlyCap'>;

/** 'You and your friend each get $5.00 in your CreditCard Wallet when your friend makes their first payment.' */
export function rewardSentence({ referrerReward, friendReward }: Numbers): string {
  const when = 'when your friend makes their first payment.';
  if (referrerReward === friendReward) {
    return `You and your friend each get ${formatMoney(referrerReward)} in your CreditCard Wallet ${when}`;
  }
  return `You get ${formatMoney(referrerReward)} and your friend gets ${formatMoney(friendReward)} in your CreditCard Wallets ${when}`;
}

/** How many friends a month can earn the user a reward. */
export function capSentence({ monthlyCap }: Numbers): string {
  return `You can be rewarded for up to ${monthlyCap} ${monthlyCap === 1 ? 'friend' : 'friends'} each month.`;
}

/** The rules of the programme, in the order the about screen lists them. */
export function programmeRules(numbers: Numbers): string[] {
  return [
    capSentence(numbers),
    'Each friend earns you one reward, however many times you invite them.',
    'Inviting yourself (another account of your own) earns no reward.',
    'When something about a reward looks wrong, it is held for review before it reaches your wallet.',
  ];
}
