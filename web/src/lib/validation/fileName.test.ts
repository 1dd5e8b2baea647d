import { describe, expect, it } from 'vitest';
import { FILE_NAME_INPUT_MAX_LENGTH, fileName, fileNameError } from './fileName';

describe('spec §5 file name', () => {
  it("'Must be 2 characters or more'", () => {
    expect(fileNameError('')).toBe('Must be 2 characters or more');
    expect(fileNameError('a')).toBe('Must be 2 characters or more');
    expect(fileNameError('   ')).toBe('Must be 2 characters or more');
    expect(fileNameError(' a ')).toBe('Must be 2 characters or more');
    expect(fileNameError('ab')).toBeUndefined();
  });

  it("'Must be 50 characters or less'", () => {
    expect(fileNameError('a'.repeat(50))).toBeUndefined();
    expect(fileNameError('a'.repeat(51))).toBe('Must be 50 characters or less');
    expect(fileNameError(`  ${'a'.repeat(50)}  `)).toBeUndefined();
  });

  it("'Special characters can not be used'", () => {
    for (const bad of ['a/b', 'a\\b', 'a:b', 'a*b', 'a?b', 'a<b>', 'a@b', 'a#b', 'a$b', 'a%b', 'a(b)', 'a\tb', 'a\nb', 'a\u{1F4F7}b']) {
      expect(fileNameError(bad), bad).toBe('Special characters can not be used');
    }
  });

  it('allows letters, digits and , - _ ` | . \' " and space', () => {
    expect(fileNameError('Kitchen, 2nd floor - left_side `a` | b.mp4 \'x\' "y"')).toBeUndefined();
    expect(fileNameError('Café Zürich')).toBeUndefined();
    expect(fileNameError('Дом 12')).toBeUndefined();
    expect(fileNameError('東京の部屋')).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', () => {
    // 50 letters outside the Basic Multilingual Plane: 100 UTF-16 units, 50 characters.
    expect(fileNameError('\u{1D400}'.repeat(50))).toBeUndefined();
    expect(fileNameError('\u{1D400}'.repeat(51))).toBe('Must be 50 characters or less');
  });

  it('reports the characters first when both rules fail', () => {
    expect(fileNameError('$')).toBe('Special characters can not be used');
    expect(fileNameError(`${'a'.repeat(60)}$`)).toBe('Special characters can not be used');
  });

  it('outputs the trimmed name and exports the input cap', () => {
    expect(fileName.parse('  Front door  ')).toBe('Front door');
    expect(FILE_NAME_INPUT_MAX_LENGTH).toBe(250);
  });
});
