#!/bin/bash
set -uxo pipefail
cd /testbed
git config --global --add safe.directory /testbed
git status
git -c core.fileMode=false diff 478c086c6723f532b1a60ce759f7f085dd3f47cf
git checkout 478c086c6723f532b1a60ce759f7f085dd3f47cf tests/test_ledger.py
git apply -v - <<'EOF_114329324912'
diff --git a/tests/test_ledger.py b/tests/test_ledger.py
index 43cd89b..a799700 100644
--- a/tests/test_ledger.py
+++ b/tests/test_ledger.py
@@ -40,3 +40,17 @@ def test_statement_running_balance(ledger):
 def test_find(ledger):
     assert ledger.find("rent").memo == "Rent February"
     assert ledger.find("holiday") is None
+
+
+def test_balance_as_of_a_date(ledger):
+    assert ledger.balance("assets:bank", as_of=date(2024, 1, 31)) == eur("2915.80")
+    assert ledger.balance("assets:bank", as_of=date(2023, 12, 31)) == eur("0")
+
+
+def test_balances_as_of_a_date(ledger):
+    balances = ledger.balances(as_of=date(2024, 1, 5))
+    assert balances == {"assets:bank": eur("-84.20"), "expenses:food": eur("84.20")}
+
+
+def test_balance_without_date_counts_everything(ledger):
+    assert ledger.balance("expenses:rent") == eur("1200")
EOF_114329324912
: '>>>>> Start Test Output'
python3 -m pytest -rA -p no:cacheprovider tests
: '>>>>> End Test Output'
git checkout 478c086c6723f532b1a60ce759f7f085dd3f47cf tests/test_ledger.py
