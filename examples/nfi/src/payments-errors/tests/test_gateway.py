import pytest

from payments import errors
from payments.gateway import Gateway


def transport(request):
    if request["card"] == "down":
        raise OSError("connection refused")
    if request["card"] == "bad":
        return {"status": "declined", "code": "51"}
    return {"status": "ok", "id": f"tx-{request['amount']}"}


def declined_type():
    return next(v for k, v in vars(errors).items() if k.startswith("CardDeclined"))


def test_charge():
    g = Gateway(transport)
    assert g.charge("good", 500) == "tx-500"
    assert g.charge_many([("good", 1), ("good", 2)]) == ["tx-1", "tx-2"]
    assert g.attempts == 3


def test_declined():
    g = Gateway(transport)
    with pytest.raises(declined_type()) as info:
        g.charge_many([("good", 1), ("bad", 2), ("good", 3)])
    assert info.value.code == "51"
    assert g.attempts == 2


def test_unavailable():
    g = Gateway(transport)
    assert g.try_charge("down", 5) is None
    assert g.try_charge("good", 5) == "tx-5"
