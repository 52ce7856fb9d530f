/** A voter's answer: grant, deny, or abstain when the attribute is not one it decides. */
export type Vote = 'grant' | 'deny' | 'abstain';
