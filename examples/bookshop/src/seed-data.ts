/** Word lists for a realistic, deterministic catalogue (the same seed gives the same shop). */
export const CLASSICS: ReadonlyArray<{ author: string; born: string; titles: ReadonlyArray<[string, string]> }> = [
  { author: 'Frank Herbert', born: '1920-10-08', titles: [['Dune', '1965-08-01'], ['Dune Messiah', '1969-10-15'], ['Children of Dune', '1976-04-01'], ['God Emperor of Dune', '1981-05-28'], ['Heretics of Dune', '1984-04-01'], ['Chapterhouse: Dune', '1985-04-01']] },
  { author: 'Ursula K. Le Guin', born: '1929-10-21', titles: [['A Wizard of Earthsea', '1968-11-01'], ['The Left Hand of Darkness', '1969-03-01'], ['The Dispossessed', '1974-05-01'], ['The Lathe of Heaven', '1971-10-01']] },
  { author: 'Isaac Asimov', born: '1920-01-02', titles: [['Foundation', '1951-06-01'], ['Foundation and Empire', '1952-01-01'], ['Second Foundation', '1953-01-01'], ['I, Robot', '1950-12-02'], ['The Caves of Steel', '1954-02-01']] },
  { author: 'Octavia E. Butler', born: '1947-06-22', titles: [['Kindred', '1979-06-01'], ['Parable of the Sower', '1993-10-01'], ['Dawn', '1987-05-01']] },
  { author: 'Jane Austen', born: '1775-12-16', titles: [['Pride and Prejudice', '1813-01-28'], ['Sense and Sensibility', '1811-10-30'], ['Emma', '1815-12-23'], ['Persuasion', '1817-12-20']] },
  { author: 'Mary Shelley', born: '1797-08-30', titles: [['Frankenstein', '1818-01-01'], ['The Last Man', '1826-01-01']] },
  { author: 'George Orwell', born: '1903-06-25', titles: [['Nineteen Eighty-Four', '1949-06-08'], ['Animal Farm', '1945-08-17'], ['Homage to Catalonia', '1938-04-25']] },
  { author: 'Toni Morrison', born: '1931-02-18', titles: [['Beloved', '1987-09-02'], ['Song of Solomon', '1977-08-01'], ['The Bluest Eye', '1970-01-01']] },
];

export const FIRST_NAMES = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kamala', 'Lars', 'Mira', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Samir', 'Tove', 'Ugo', 'Vera', 'Wanjiru', 'Xavier', 'Yara', 'Zoltan'];
export const LAST_NAMES = ['Abernathy', 'Bianchi', 'Castellanos', 'Dubois', 'Eriksen', 'Fujimoto', 'Gallagher', 'Haddad', 'Ivanova', 'Jansen', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quiroga', 'Rasmussen', 'Santos', 'Takahashi', 'Umarov', 'Varga', 'Whitfield', 'Yilmaz'];
export const ADJECTIVES = ['Silent', 'Crimson', 'Forgotten', 'Hidden', 'Last', 'Burning', 'Distant', 'Glass', 'Hollow', 'Iron', 'Midnight', 'Northern', 'Paper', 'Quiet', 'Restless', 'Salt', 'Shattered', 'Summer', 'Wandering', 'Winter', 'Golden', 'Drowned', 'Endless', 'Broken'];
export const NOUNS = ['Garden', 'Harbour', 'Kingdom', 'Lighthouse', 'Map', 'Orchard', 'River', 'Archive', 'Cartographer', 'Clockmaker', 'Daughter', 'Empire', 'Forest', 'Island', 'Library', 'Mountain', 'Ocean', 'Promise', 'Station', 'Tide', 'Valley', 'Witness', 'Alchemist', 'Desert'];
export const PATTERNS = ['The {adj} {noun}', '{noun} of the {adj} Sea', 'A {noun} in {adj} Light', 'The {noun}\u2019s {adj} Song', 'Beyond the {adj} {noun}', '{adj} {noun}s'];
export const BLURBS = [
  'A sweeping story of ambition and loss across three generations.',
  'Two strangers meet on a night train and nothing is the same again.',
  'An expedition to the edge of the known world uncovers an old secret.',
  'A quiet, funny novel about a family that cannot stop arguing.',
  'Political intrigue in a city where memories can be bought and sold.',
  'A detective with a failing memory takes one last case.',
  'A coming-of-age tale set in a fishing village on the brink of change.',
];
export const REVIEW_LINES = [
  'Could not put it down.',
  'Beautifully written, if a little slow in the middle.',
  'The ending surprised me.',
  'Not my kind of book, but I see why people love it.',
  'A modern classic.',
  'The characters felt real and the dialogue sparkles.',
  'Overlong and underwhelming.',
  'I will read everything this author writes.',
];
