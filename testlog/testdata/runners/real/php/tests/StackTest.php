<?php
namespace Tests\Unit;

use PHPUnit\Framework\TestCase;

final class StackTest extends TestCase
{
    public function testPushAndPop(): void { $s = [1]; $this->assertSame(1, array_pop($s)); }
    public function testEmptyIsEmpty(): void { $this->assertSame([1], []); }
}
