#!/bin/bash
set -uxo pipefail
cd /testbed
git config --global --add safe.directory /testbed
git status
git -c core.fileMode=false diff 478c086c6723f532b1a60ce759f7f085dd3f47cf
git checkout 478c086c6723f532b1a60ce759f7f085dd3f47cf tests/test_money.py
git apply -v - <<'EOF_114329324912'
diff --git a/tests/test_money.py b/tests/test_money.py
index 0951e4b..44b2ac5 100644
--- a/tests/test_money.py
+++ b/tests/test_money.py
@@ -50,3 +50,20 @@ class TestAllocate:
     def test_rejects_zero_ratios(self):
         with pytest.raises(ValueError):
             Money("1", "EUR").allocate([0, 0])
+
+    def test_shares_add_up_to_the_amount(self):
+        shares = Money("100.00", "EUR").allocate([1, 1, 1])
+        assert sum(s.amount for s in shares) == Money("100.00", "EUR").amount
+
+    def test_leftover_cents_go_to_the_first_shares(self):
+        assert Money("100.00", "EUR").allocate([1, 1, 1]) == [
+            Money("33.34", "EUR"),
+            Money("33.33", "EUR"),
+            Money("33.33", "EUR"),
+        ]
+
+    def test_negative_amounts(self):
+        assert Money("-0.05", "EUR").allocate([1, 1]) == [Money("-0.03", "EUR"), Money("-0.02", "EUR")]
+
+    def test_zero_decimal_currency(self):
+        assert Money("10", "JPY").allocate([1, 2]) == [Money("3", "JPY"), Money("7", "JPY")]
EOF_114329324912
: '>>>>> Start Test Output'
python3 -m pytest -rA -p no:cacheprovider tests
: '>>>>> End Test Output'
git checkout 478c086c6723f532b1a60ce759f7f085dd3f47cf tests/test_money.py
