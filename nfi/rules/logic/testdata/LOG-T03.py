def dispatch(cmd, args):  # want "LOG-T03"
    if cmd == "a":
        pass
    elif cmd == "b":
        pass
    elif cmd == "c":
        pass
    else:
        pass
    for a in args:
        if a:
            continue
    else:
        pass
    while args:
        args.pop()
    try:
        pass
    except ValueError:
        pass
    except TypeError:
        pass
    finally:
        pass
    with open(cmd) as f:
        if f:
            pass
    match cmd:
        case "x":
            pass


def twelve(cmd):
    # exactly 12 branches: at the limit
    if cmd == 1:
        pass
    elif cmd == 2:
        pass
    elif cmd == 3:
        pass
    elif cmd == 4:
        pass
    elif cmd == 5:
        pass
    elif cmd == 6:
        pass
    elif cmd == 7:
        pass
    elif cmd == 8:
        pass
    elif cmd == 9:
        pass
    elif cmd == 10:
        pass
    elif cmd == 11:
        pass
    else:
        pass

    def nested():
        if cmd:
            pass

    return nested
