<?php

declare(strict_types=1);

require_once __DIR__ . '/../src/Inflector.php';

use PHPUnit\Framework\TestCase;
use Wordsmith\Inflect\Inflector;

final class InflectorTest extends TestCase
{
    public function testRegularPlurals(): void
    {
        $this->assertSame('cats', Inflector::pluralize('cat'));
        $this->assertSame('Dogs', Inflector::pluralize('Dog'));
    }

    public function testSibilantPlurals(): void
    {
        foreach (['box' => 'boxes', 'church' => 'churches', 'bus' => 'buses', 'dish' => 'dishes'] as $one => $many) {
            $this->assertSame($many, Inflector::pluralize($one));
        }
    }

    public function testVowelYPlurals(): void
    {
        $this->assertSame('boys', Inflector::pluralize('boy'));
        $this->assertSame('days', Inflector::pluralize('day'));
    }

    public function testUncountable(): void
    {
        $this->assertSame('sheep', Inflector::pluralize('sheep'));
        $this->assertSame('Series', Inflector::singularize('Series'));
    }

    public function testSingularize(): void
    {
        foreach (['cats' => 'cat', 'boxes' => 'box', 'cities' => 'city', 'glass' => 'glass'] as $many => $one) {
            $this->assertSame($one, Inflector::singularize($many));
        }
    }

    public function testIrregularPlurals(): void
    {
        foreach (['person' => 'people', 'child' => 'children', 'mouse' => 'mice', 'Man' => 'Men', 'CHILD' => 'CHILDREN'] as $one => $many) {
            $this->assertSame($many, Inflector::pluralize($one));
            $this->assertSame($one, Inflector::singularize($many));
        }
    }
}
