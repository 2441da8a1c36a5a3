<?php
use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAddsNumbers(): void { $this->assertSame(2, 1 + 1); }
    public function testDivides(): void { $this->assertSame(3, 4 / 2); }
    public function testSkipped(): void { $this->markTestSkipped('no'); }
    public function testIncomplete(): void { $this->markTestIncomplete('todo'); }
    public function testErrors(): void { throw new RuntimeException('boom'); }
    /** @dataProvider data */
    public function testData(int $a): void { $this->assertSame(1, $a); }
    public function data(): array { return ['one' => [1], 'two' => [2]]; }
}
