from reports import archive


def test_archive_roundtrip(tmp_path):
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    for name in ["sales.csv", "costs.csv", "notes.txt"]:
        (outbox / name).write_text(name)
    root = str(tmp_path / "store")
    assert archive.pending_reports(str(outbox)) == ["costs.csv", "sales.csv"]
    moved = archive.archive(str(outbox), root, "2024-02-27")
    assert moved == ["costs-2024-02-27.csv", "sales-2024-02-27.csv"]
    assert sorted(p.name for p in outbox.iterdir()) == ["notes.txt"]
    (outbox / "sales.csv").write_text("again")
    assert archive.archive(outbox, root, "2024-02-27") == ["sales-2024-02-27.csv"]
    archive.archive_dir(root, "2023-12-31")
    assert archive.archived_days(root) == ["2023-12-31", "2024-02-27"]


def test_no_archive_yet(tmp_path):
    assert archive.archived_days(tmp_path) == []
