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

    public static function pluralize(string $word): string
    {
        if ($word === '' || in_array(strtolower($word), self::UNCOUNTABLE, true)) {
            return $word;
        }
        if (preg_match('/(s|x|z|ch|sh)$/i', $word)) {
            return $word . 'es';
        }
        if (preg_match('/[^aeiou]y$/i', $word)) {
            return substr($word, 0, -1) . 'ies';
        }
        return $word . 's';
    }

    public static function singularize(string $word): string
    {
        if ($word === '' || in_array(strtolower($word), self::UNCOUNTABLE, true)) {
            return $word;
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
}
