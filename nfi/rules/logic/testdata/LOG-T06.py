# want "LOG-T06"
def tangled(a, b, c):
    x = 0
    if a > 1 and b < 1 or c == 1:
        x = x + a * 1 - b // 2 + c % 3
    if a > 2 and b < 2 or c == 2:
        x = x + a * 2 - b // 3 + c % 4
    if a > 3 and b < 3 or c == 3:
        x = x + a * 3 - b // 4 + c % 5
    if a > 4 and b < 4 or c == 4:
        x = x + a * 4 - b // 5 + c % 6
    if a > 5 and b < 5 or c == 5:
        x = x + a * 5 - b // 6 + c % 7
    if a > 6 and b < 6 or c == 6:
        x = x + a * 6 - b // 7 + c % 8
    if a > 7 and b < 7 or c == 7:
        x = x + a * 7 - b // 8 + c % 9
    if a > 8 and b < 8 or c == 8:
        x = x + a * 8 - b // 9 + c % 10
    if a > 9 and b < 9 or c == 9:
        x = x + a * 9 - b // 10 + c % 11
    if a > 10 and b < 10 or c == 10:
        x = x + a * 10 - b // 11 + c % 12
    if a > 11 and b < 11 or c == 11:
        x = x + a * 11 - b // 12 + c % 13
    if a > 12 and b < 12 or c == 12:
        x = x + a * 12 - b // 13 + c % 14
    if a > 13 and b < 13 or c == 13:
        x = x + a * 13 - b // 14 + c % 15
    if a > 14 and b < 14 or c == 14:
        x = x + a * 14 - b // 15 + c % 16
    if a > 15 and b < 15 or c == 15:
        x = x + a * 15 - b // 16 + c % 17
    if a > 16 and b < 16 or c == 16:
        x = x + a * 16 - b // 17 + c % 18
    if a > 17 and b < 17 or c == 17:
        x = x + a * 17 - b // 18 + c % 19
    if a > 18 and b < 18 or c == 18:
        x = x + a * 18 - b // 19 + c % 20
    if a > 19 and b < 19 or c == 19:
        x = x + a * 19 - b // 20 + c % 21
    if a > 20 and b < 20 or c == 20:
        x = x + a * 20 - b // 21 + c % 22
    if a > 21 and b < 21 or c == 21:
        x = x + a * 21 - b // 22 + c % 23
    if a > 22 and b < 22 or c == 22:
        x = x + a * 22 - b // 23 + c % 24
    if a > 23 and b < 23 or c == 23:
        x = x + a * 23 - b // 24 + c % 25
    if a > 24 and b < 24 or c == 24:
        x = x + a * 24 - b // 25 + c % 26
    if a > 25 and b < 25 or c == 25:
        x = x + a * 25 - b // 26 + c % 27
    if a > 26 and b < 26 or c == 26:
        x = x + a * 26 - b // 27 + c % 28
    if a > 27 and b < 27 or c == 27:
        x = x + a * 27 - b // 28 + c % 29
    if a > 28 and b < 28 or c == 28:
        x = x + a * 28 - b // 29 + c % 30
    if a > 29 and b < 29 or c == 29:
        x = x + a * 29 - b // 30 + c % 31
    if a > 30 and b < 30 or c == 30:
        x = x + a * 30 - b // 31 + c % 32
    if a > 31 and b < 31 or c == 31:
        x = x + a * 31 - b // 32 + c % 33
    if a > 32 and b < 32 or c == 32:
        x = x + a * 32 - b // 33 + c % 34
    if a > 33 and b < 33 or c == 33:
        x = x + a * 33 - b // 34 + c % 35
    if a > 34 and b < 34 or c == 34:
        x = x + a * 34 - b // 35 + c % 36
    if a > 35 and b < 35 or c == 35:
        x = x + a * 35 - b // 36 + c % 37
    if a > 36 and b < 36 or c == 36:
        x = x + a * 36 - b // 37 + c % 38
    if a > 37 and b < 37 or c == 37:
        x = x + a * 37 - b // 38 + c % 39
    if a > 38 and b < 38 or c == 38:
        x = x + a * 38 - b // 39 + c % 40
    if a > 39 and b < 39 or c == 39:
        x = x + a * 39 - b // 40 + c % 41
    if a > 40 and b < 40 or c == 40:
        x = x + a * 40 - b // 41 + c % 42
    if a > 41 and b < 41 or c == 41:
        x = x + a * 41 - b // 42 + c % 43
    if a > 42 and b < 42 or c == 42:
        x = x + a * 42 - b // 43 + c % 44
    if a > 43 and b < 43 or c == 43:
        x = x + a * 43 - b // 44 + c % 45
    if a > 44 and b < 44 or c == 44:
        x = x + a * 44 - b // 45 + c % 46
    if a > 45 and b < 45 or c == 45:
        x = x + a * 45 - b // 46 + c % 47
    if a > 46 and b < 46 or c == 46:
        x = x + a * 46 - b // 47 + c % 48
    if a > 47 and b < 47 or c == 47:
        x = x + a * 47 - b // 48 + c % 49
    if a > 48 and b < 48 or c == 48:
        x = x + a * 48 - b // 49 + c % 50
    if a > 49 and b < 49 or c == 49:
        x = x + a * 49 - b // 50 + c % 51
    if a > 50 and b < 50 or c == 50:
        x = x + a * 50 - b // 51 + c % 52
    if a > 51 and b < 51 or c == 51:
        x = x + a * 51 - b // 52 + c % 53
    if a > 52 and b < 52 or c == 52:
        x = x + a * 52 - b // 53 + c % 54
    if a > 53 and b < 53 or c == 53:
        x = x + a * 53 - b // 54 + c % 55
    if a > 54 and b < 54 or c == 54:
        x = x + a * 54 - b // 55 + c % 56
    if a > 55 and b < 55 or c == 55:
        x = x + a * 55 - b // 56 + c % 57
    if a > 56 and b < 56 or c == 56:
        x = x + a * 56 - b // 57 + c % 58
    if a > 57 and b < 57 or c == 57:
        x = x + a * 57 - b // 58 + c % 59
    if a > 58 and b < 58 or c == 58:
        x = x + a * 58 - b // 59 + c % 60
    if a > 59 and b < 59 or c == 59:
        x = x + a * 59 - b // 60 + c % 61
    if a > 60 and b < 60 or c == 60:
        x = x + a * 60 - b // 61 + c % 62
    if a > 61 and b < 61 or c == 61:
        x = x + a * 61 - b // 62 + c % 63
    if a > 62 and b < 62 or c == 62:
        x = x + a * 62 - b // 63 + c % 64
    if a > 63 and b < 63 or c == 63:
        x = x + a * 63 - b // 64 + c % 65
    if a > 64 and b < 64 or c == 64:
        x = x + a * 64 - b // 65 + c % 66
    if a > 65 and b < 65 or c == 65:
        x = x + a * 65 - b // 66 + c % 67
    if a > 66 and b < 66 or c == 66:
        x = x + a * 66 - b // 67 + c % 68
    if a > 67 and b < 67 or c == 67:
        x = x + a * 67 - b // 68 + c % 69
    if a > 68 and b < 68 or c == 68:
        x = x + a * 68 - b // 69 + c % 70
    if a > 69 and b < 69 or c == 69:
        x = x + a * 69 - b // 70 + c % 71
    if a > 70 and b < 70 or c == 70:
        x = x + a * 70 - b // 71 + c % 72
    if a > 71 and b < 71 or c == 71:
        x = x + a * 71 - b // 72 + c % 73
    if a > 72 and b < 72 or c == 72:
        x = x + a * 72 - b // 73 + c % 74
    if a > 73 and b < 73 or c == 73:
        x = x + a * 73 - b // 74 + c % 75
    if a > 74 and b < 74 or c == 74:
        x = x + a * 74 - b // 75 + c % 76
    if a > 75 and b < 75 or c == 75:
        x = x + a * 75 - b // 76 + c % 77
    if a > 76 and b < 76 or c == 76:
        x = x + a * 76 - b // 77 + c % 78
    if a > 77 and b < 77 or c == 77:
        x = x + a * 77 - b // 78 + c % 79
    if a > 78 and b < 78 or c == 78:
        x = x + a * 78 - b // 79 + c % 80
    if a > 79 and b < 79 or c == 79:
        x = x + a * 79 - b // 80 + c % 81
    if a > 80 and b < 80 or c == 80:
        x = x + a * 80 - b // 81 + c % 82
    if a > 81 and b < 81 or c == 81:
        x = x + a * 81 - b // 82 + c % 83
    if a > 82 and b < 82 or c == 82:
        x = x + a * 82 - b // 83 + c % 84
    if a > 83 and b < 83 or c == 83:
        x = x + a * 83 - b // 84 + c % 85
    if a > 84 and b < 84 or c == 84:
        x = x + a * 84 - b // 85 + c % 86
    if a > 85 and b < 85 or c == 85:
        x = x + a * 85 - b // 86 + c % 87
    if a > 86 and b < 86 or c == 86:
        x = x + a * 86 - b // 87 + c % 88
    if a > 87 and b < 87 or c == 87:
        x = x + a * 87 - b // 88 + c % 89
    if a > 88 and b < 88 or c == 88:
        x = x + a * 88 - b // 89 + c % 90
    if a > 89 and b < 89 or c == 89:
        x = x + a * 89 - b // 90 + c % 91
    if a > 90 and b < 90 or c == 90:
        x = x + a * 90 - b // 91 + c % 92
    if a > 91 and b < 91 or c == 91:
        x = x + a * 91 - b // 92 + c % 93
    if a > 92 and b < 92 or c == 92:
        x = x + a * 92 - b // 93 + c % 94
    if a > 93 and b < 93 or c == 93:
        x = x + a * 93 - b // 94 + c % 95
    if a > 94 and b < 94 or c == 94:
        x = x + a * 94 - b // 95 + c % 96
    if a > 95 and b < 95 or c == 95:
        x = x + a * 95 - b // 96 + c % 97
    if a > 96 and b < 96 or c == 96:
        x = x + a * 96 - b // 97 + c % 98
    if a > 97 and b < 97 or c == 97:
        x = x + a * 97 - b // 98 + c % 99
    if a > 98 and b < 98 or c == 98:
        x = x + a * 98 - b // 99 + c % 100
    if a > 99 and b < 99 or c == 99:
        x = x + a * 99 - b // 100 + c % 101
    if a > 100 and b < 100 or c == 100:
        x = x + a * 100 - b // 101 + c % 102
    if a > 101 and b < 101 or c == 101:
        x = x + a * 101 - b // 102 + c % 103
    if a > 102 and b < 102 or c == 102:
        x = x + a * 102 - b // 103 + c % 104
    if a > 103 and b < 103 or c == 103:
        x = x + a * 103 - b // 104 + c % 105
    if a > 104 and b < 104 or c == 104:
        x = x + a * 104 - b // 105 + c % 106
    if a > 105 and b < 105 or c == 105:
        x = x + a * 105 - b // 106 + c % 107
    if a > 106 and b < 106 or c == 106:
        x = x + a * 106 - b // 107 + c % 108
    if a > 107 and b < 107 or c == 107:
        x = x + a * 107 - b // 108 + c % 109
    if a > 108 and b < 108 or c == 108:
        x = x + a * 108 - b // 109 + c % 110
    if a > 109 and b < 109 or c == 109:
        x = x + a * 109 - b // 110 + c % 111
    if a > 110 and b < 110 or c == 110:
        x = x + a * 110 - b // 111 + c % 112
    if a > 111 and b < 111 or c == 111:
        x = x + a * 111 - b // 112 + c % 113
    if a > 112 and b < 112 or c == 112:
        x = x + a * 112 - b // 113 + c % 114
    if a > 113 and b < 113 or c == 113:
        x = x + a * 113 - b // 114 + c % 115
    if a > 114 and b < 114 or c == 114:
        x = x + a * 114 - b // 115 + c % 116
    if a > 115 and b < 115 or c == 115:
        x = x + a * 115 - b // 116 + c % 117
    if a > 116 and b < 116 or c == 116:
        x = x + a * 116 - b // 117 + c % 118
    if a > 117 and b < 117 or c == 117:
        x = x + a * 117 - b // 118 + c % 119
    if a > 118 and b < 118 or c == 118:
        x = x + a * 118 - b // 119 + c % 120
    if a > 119 and b < 119 or c == 119:
        x = x + a * 119 - b // 120 + c % 121
    if a > 120 and b < 120 or c == 120:
        x = x + a * 120 - b // 121 + c % 122
    return x
