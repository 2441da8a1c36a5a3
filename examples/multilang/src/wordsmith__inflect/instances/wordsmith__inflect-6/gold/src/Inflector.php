<?php

declare(strict_types=1);

namespace Wordsmith\Inflect;

/**
 * English plural and singular forms of single lower- or mixed-case words.
 */
final class Inflector
{
    /** Words whose plural is the word itself. */
    private const UNCOUNTABLE = ['sheep', 'fish', 'series', 'species', 'information', 'equipment'];

    /** Irregular singular => plural pairs, lower case. */
    private const IRREGULAR = ['person' => 'people', 'child' => 'children', 'man' => 'men', 'woman' => 'women',
        'mouse' => 'mice', 'goose' => 'geese', 'tooth' => 'teeth', 'foot' => 'feet'];

    public static function pluralize(string $word): string
    {
        if ($word === '' || in_array(strtolower($word), self::UNCOUNTABLE, true)) {
            return $word;
        }
        $irregular = self::IRREGULAR[strtolower($word)] ?? null;
        if ($irregular !== null) {
            return self::matchCase($word, $irregular);
        }
        if (preg_match('/(s|x|z|ch|sh)$/i', $word)) {
            return $word . 'es';
        }
        return $word . 's';
    }

    public static function singularize(string $word): string
    {
        if ($word === '' || in_array(strtolower($word), self::UNCOUNTABLE, true)) {
            return $word;
        }
        $irregular = array_search(strtolower($word), self::IRREGULAR, true);
        if ($irregular !== false) {
            return self::matchCase($word, $irregular);
        }
        if (preg_match('/ies$/i', $word)) {
            return substr($word, 0, -3) . 'y';
        }
        if (preg_match('/(s|x|z|ch|sh)es$/i', $word)) {
            return substr($word, 0, -2);
        }
        if (preg_match('/s$/i', $word) && !preg_match('/ss$/i', $word)) {
            return substr($word, 0, -1);
        }
        return $word;
    }

    /** $word's case pattern on $form: all upper, capitalised or as is. */
    private static function matchCase(string $word, string $form): string
    {
        if (strlen($word) > 1 && strtoupper($word) === $word) {
            return strtoupper($form);
        }
        if (ctype_upper($word[0])) {
            return ucfirst($form);
        }
        return $form;
    }
}
