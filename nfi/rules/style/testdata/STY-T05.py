"""Module length fixture: 1000 lines pass, this module is longer."""
# want:1001 "STY-T05"



def handler_0(event):
    """Handle event kind 0."""
    return event.get("kind_0")


def handler_1(event):
    """Handle event kind 1."""
    return event.get("kind_1")


def handler_2(event):
    """Handle event kind 2."""
    return event.get("kind_2")


def handler_3(event):
    """Handle event kind 3."""
    return event.get("kind_3")


def handler_4(event):
    """Handle event kind 4."""
    return event.get("kind_4")


def handler_5(event):
    """Handle event kind 5."""
    return event.get("kind_5")


def handler_6(event):
    """Handle event kind 6."""
    return event.get("kind_6")


def handler_7(event):
    """Handle event kind 7."""
    return event.get("kind_7")


def handler_8(event):
    """Handle event kind 8."""
    return event.get("kind_8")


def handler_9(event):
    """Handle event kind 9."""
    return event.get("kind_9")


def handler_10(event):
    """Handle event kind 10."""
    return event.get("kind_10")


def handler_11(event):
    """Handle event kind 11."""
    return event.get("kind_11")


def handler_12(event):
    """Handle event kind 12."""
    return event.get("kind_12")


def handler_13(event):
    """Handle event kind 13."""
    return event.get("kind_13")


def handler_14(event):
    """Handle event kind 14."""
    return event.get("kind_14")


def handler_15(event):
    """Handle event kind 15."""
    return event.get("kind_15")


def handler_16(event):
    """Handle event kind 16."""
    return event.get("kind_16")


def handler_17(event):
    """Handle event kind 17."""
    return event.get("kind_17")


def handler_18(event):
    """Handle event kind 18."""
    return event.get("kind_18")


def handler_19(event):
    """Handle event kind 19."""
    return event.get("kind_19")


def handler_20(event):
    """Handle event kind 20."""
    return event.get("kind_20")


def handler_21(event):
    """Handle event kind 21."""
    return event.get("kind_21")


def handler_22(event):
    """Handle event kind 22."""
    return event.get("kind_22")


def handler_23(event):
    """Handle event kind 23."""
    return event.get("kind_23")


def handler_24(event):
    """Handle event kind 24."""
    return event.get("kind_24")


def handler_25(event):
    """Handle event kind 25."""
    return event.get("kind_25")


def handler_26(event):
    """Handle event kind 26."""
    return event.get("kind_26")


def handler_27(event):
    """Handle event kind 27."""
    return event.get("kind_27")


def handler_28(event):
    """Handle event kind 28."""
    return event.get("kind_28")


def handler_29(event):
    """Handle event kind 29."""
    return event.get("kind_29")


def handler_30(event):
    """Handle event kind 30."""
    return event.get("kind_30")


def handler_31(event):
    """Handle event kind 31."""
    return event.get("kind_31")


def handler_32(event):
    """Handle event kind 32."""
    return event.get("kind_32")


def handler_33(event):
    """Handle event kind 33."""
    return event.get("kind_33")


def handler_34(event):
    """Handle event kind 34."""
    return event.get("kind_34")


def handler_35(event):
    """Handle event kind 35."""
    return event.get("kind_35")


def handler_36(event):
    """Handle event kind 36."""
    return event.get("kind_36")


def handler_37(event):
    """Handle event kind 37."""
    return event.get("kind_37")


def handler_38(event):
    """Handle event kind 38."""
    return event.get("kind_38")


def handler_39(event):
    """Handle event kind 39."""
    return event.get("kind_39")


def handler_40(event):
    """Handle event kind 40."""
    return event.get("kind_40")


def handler_41(event):
    """Handle event kind 41."""
    return event.get("kind_41")


def handler_42(event):
    """Handle event kind 42."""
    return event.get("kind_42")


def handler_43(event):
    """Handle event kind 43."""
    return event.get("kind_43")


def handler_44(event):
    """Handle event kind 44."""
    return event.get("kind_44")


def handler_45(event):
    """Handle event kind 45."""
    return event.get("kind_45")


def handler_46(event):
    """Handle event kind 46."""
    return event.get("kind_46")


def handler_47(event):
    """Handle event kind 47."""
    return event.get("kind_47")


def handler_48(event):
    """Handle event kind 48."""
    return event.get("kind_48")


def handler_49(event):
    """Handle event kind 49."""
    return event.get("kind_49")


def handler_50(event):
    """Handle event kind 50."""
    return event.get("kind_50")


def handler_51(event):
    """Handle event kind 51."""
    return event.get("kind_51")


def handler_52(event):
    """Handle event kind 52."""
    return event.get("kind_52")


def handler_53(event):
    """Handle event kind 53."""
    return event.get("kind_53")


def handler_54(event):
    """Handle event kind 54."""
    return event.get("kind_54")


def handler_55(event):
    """Handle event kind 55."""
    return event.get("kind_55")


def handler_56(event):
    """Handle event kind 56."""
    return event.get("kind_56")


def handler_57(event):
    """Handle event kind 57."""
    return event.get("kind_57")


def handler_58(event):
    """Handle event kind 58."""
    return event.get("kind_58")


def handler_59(event):
    """Handle event kind 59."""
    return event.get("kind_59")


def handler_60(event):
    """Handle event kind 60."""
    return event.get("kind_60")


def handler_61(event):
    """Handle event kind 61."""
    return event.get("kind_61")


def handler_62(event):
    """Handle event kind 62."""
    return event.get("kind_62")


def handler_63(event):
    """Handle event kind 63."""
    return event.get("kind_63")


def handler_64(event):
    """Handle event kind 64."""
    return event.get("kind_64")


def handler_65(event):
    """Handle event kind 65."""
    return event.get("kind_65")


def handler_66(event):
    """Handle event kind 66."""
    return event.get("kind_66")


def handler_67(event):
    """Handle event kind 67."""
    return event.get("kind_67")


def handler_68(event):
    """Handle event kind 68."""
    return event.get("kind_68")


def handler_69(event):
    """Handle event kind 69."""
    return event.get("kind_69")


def handler_70(event):
    """Handle event kind 70."""
    return event.get("kind_70")


def handler_71(event):
    """Handle event kind 71."""
    return event.get("kind_71")


def handler_72(event):
    """Handle event kind 72."""
    return event.get("kind_72")


def handler_73(event):
    """Handle event kind 73."""
    return event.get("kind_73")


def handler_74(event):
    """Handle event kind 74."""
    return event.get("kind_74")


def handler_75(event):
    """Handle event kind 75."""
    return event.get("kind_75")


def handler_76(event):
    """Handle event kind 76."""
    return event.get("kind_76")


def handler_77(event):
    """Handle event kind 77."""
    return event.get("kind_77")


def handler_78(event):
    """Handle event kind 78."""
    return event.get("kind_78")


def handler_79(event):
    """Handle event kind 79."""
    return event.get("kind_79")


def handler_80(event):
    """Handle event kind 80."""
    return event.get("kind_80")


def handler_81(event):
    """Handle event kind 81."""
    return event.get("kind_81")


def handler_82(event):
    """Handle event kind 82."""
    return event.get("kind_82")


def handler_83(event):
    """Handle event kind 83."""
    return event.get("kind_83")


def handler_84(event):
    """Handle event kind 84."""
    return event.get("kind_84")


def handler_85(event):
    """Handle event kind 85."""
    return event.get("kind_85")


def handler_86(event):
    """Handle event kind 86."""
    return event.get("kind_86")


def handler_87(event):
    """Handle event kind 87."""
    return event.get("kind_87")


def handler_88(event):
    """Handle event kind 88."""
    return event.get("kind_88")


def handler_89(event):
    """Handle event kind 89."""
    return event.get("kind_89")


def handler_90(event):
    """Handle event kind 90."""
    return event.get("kind_90")


def handler_91(event):
    """Handle event kind 91."""
    return event.get("kind_91")


def handler_92(event):
    """Handle event kind 92."""
    return event.get("kind_92")


def handler_93(event):
    """Handle event kind 93."""
    return event.get("kind_93")


def handler_94(event):
    """Handle event kind 94."""
    return event.get("kind_94")


def handler_95(event):
    """Handle event kind 95."""
    return event.get("kind_95")


def handler_96(event):
    """Handle event kind 96."""
    return event.get("kind_96")


def handler_97(event):
    """Handle event kind 97."""
    return event.get("kind_97")


def handler_98(event):
    """Handle event kind 98."""
    return event.get("kind_98")


def handler_99(event):
    """Handle event kind 99."""
    return event.get("kind_99")


def handler_100(event):
    """Handle event kind 100."""
    return event.get("kind_100")


def handler_101(event):
    """Handle event kind 101."""
    return event.get("kind_101")


def handler_102(event):
    """Handle event kind 102."""
    return event.get("kind_102")


def handler_103(event):
    """Handle event kind 103."""
    return event.get("kind_103")


def handler_104(event):
    """Handle event kind 104."""
    return event.get("kind_104")


def handler_105(event):
    """Handle event kind 105."""
    return event.get("kind_105")


def handler_106(event):
    """Handle event kind 106."""
    return event.get("kind_106")


def handler_107(event):
    """Handle event kind 107."""
    return event.get("kind_107")


def handler_108(event):
    """Handle event kind 108."""
    return event.get("kind_108")


def handler_109(event):
    """Handle event kind 109."""
    return event.get("kind_109")


def handler_110(event):
    """Handle event kind 110."""
    return event.get("kind_110")


def handler_111(event):
    """Handle event kind 111."""
    return event.get("kind_111")


def handler_112(event):
    """Handle event kind 112."""
    return event.get("kind_112")


def handler_113(event):
    """Handle event kind 113."""
    return event.get("kind_113")


def handler_114(event):
    """Handle event kind 114."""
    return event.get("kind_114")


def handler_115(event):
    """Handle event kind 115."""
    return event.get("kind_115")


def handler_116(event):
    """Handle event kind 116."""
    return event.get("kind_116")


def handler_117(event):
    """Handle event kind 117."""
    return event.get("kind_117")


def handler_118(event):
    """Handle event kind 118."""
    return event.get("kind_118")


def handler_119(event):
    """Handle event kind 119."""
    return event.get("kind_119")


def handler_120(event):
    """Handle event kind 120."""
    return event.get("kind_120")


def handler_121(event):
    """Handle event kind 121."""
    return event.get("kind_121")


def handler_122(event):
    """Handle event kind 122."""
    return event.get("kind_122")


def handler_123(event):
    """Handle event kind 123."""
    return event.get("kind_123")


def handler_124(event):
    """Handle event kind 124."""
    return event.get("kind_124")


def handler_125(event):
    """Handle event kind 125."""
    return event.get("kind_125")


def handler_126(event):
    """Handle event kind 126."""
    return event.get("kind_126")


def handler_127(event):
    """Handle event kind 127."""
    return event.get("kind_127")


def handler_128(event):
    """Handle event kind 128."""
    return event.get("kind_128")


def handler_129(event):
    """Handle event kind 129."""
    return event.get("kind_129")


def handler_130(event):
    """Handle event kind 130."""
    return event.get("kind_130")


def handler_131(event):
    """Handle event kind 131."""
    return event.get("kind_131")


def handler_132(event):
    """Handle event kind 132."""
    return event.get("kind_132")


def handler_133(event):
    """Handle event kind 133."""
    return event.get("kind_133")


def handler_134(event):
    """Handle event kind 134."""
    return event.get("kind_134")


def handler_135(event):
    """Handle event kind 135."""
    return event.get("kind_135")


def handler_136(event):
    """Handle event kind 136."""
    return event.get("kind_136")


def handler_137(event):
    """Handle event kind 137."""
    return event.get("kind_137")


def handler_138(event):
    """Handle event kind 138."""
    return event.get("kind_138")


def handler_139(event):
    """Handle event kind 139."""
    return event.get("kind_139")


def handler_140(event):
    """Handle event kind 140."""
    return event.get("kind_140")


def handler_141(event):
    """Handle event kind 141."""
    return event.get("kind_141")


def handler_142(event):
    """Handle event kind 142."""
    return event.get("kind_142")


def handler_143(event):
    """Handle event kind 143."""
    return event.get("kind_143")


def handler_144(event):
    """Handle event kind 144."""
    return event.get("kind_144")


def handler_145(event):
    """Handle event kind 145."""
    return event.get("kind_145")


def handler_146(event):
    """Handle event kind 146."""
    return event.get("kind_146")


def handler_147(event):
    """Handle event kind 147."""
    return event.get("kind_147")


def handler_148(event):
    """Handle event kind 148."""
    return event.get("kind_148")


def handler_149(event):
    """Handle event kind 149."""
    return event.get("kind_149")


def handler_150(event):
    """Handle event kind 150."""
    return event.get("kind_150")


def handler_151(event):
    """Handle event kind 151."""
    return event.get("kind_151")


def handler_152(event):
    """Handle event kind 152."""
    return event.get("kind_152")


def handler_153(event):
    """Handle event kind 153."""
    return event.get("kind_153")


def handler_154(event):
    """Handle event kind 154."""
    return event.get("kind_154")


def handler_155(event):
    """Handle event kind 155."""
    return event.get("kind_155")


def handler_156(event):
    """Handle event kind 156."""
    return event.get("kind_156")


def handler_157(event):
    """Handle event kind 157."""
    return event.get("kind_157")


def handler_158(event):
    """Handle event kind 158."""
    return event.get("kind_158")


def handler_159(event):
    """Handle event kind 159."""
    return event.get("kind_159")


def handler_160(event):
    """Handle event kind 160."""
    return event.get("kind_160")


def handler_161(event):
    """Handle event kind 161."""
    return event.get("kind_161")


def handler_162(event):
    """Handle event kind 162."""
    return event.get("kind_162")


def handler_163(event):
    """Handle event kind 163."""
    return event.get("kind_163")


def handler_164(event):
    """Handle event kind 164."""
    return event.get("kind_164")


def handler_165(event):
    """Handle event kind 165."""
    return event.get("kind_165")


def handler_166(event):
    """Handle event kind 166."""
    return event.get("kind_166")


def handler_167(event):
    """Handle event kind 167."""
    return event.get("kind_167")


def handler_168(event):
    """Handle event kind 168."""
    return event.get("kind_168")


def handler_169(event):
    """Handle event kind 169."""
    return event.get("kind_169")


def handler_170(event):
    """Handle event kind 170."""
    return event.get("kind_170")


def handler_171(event):
    """Handle event kind 171."""
    return event.get("kind_171")


def handler_172(event):
    """Handle event kind 172."""
    return event.get("kind_172")


def handler_173(event):
    """Handle event kind 173."""
    return event.get("kind_173")


def handler_174(event):
    """Handle event kind 174."""
    return event.get("kind_174")


def handler_175(event):
    """Handle event kind 175."""
    return event.get("kind_175")


def handler_176(event):
    """Handle event kind 176."""
    return event.get("kind_176")


def handler_177(event):
    """Handle event kind 177."""
    return event.get("kind_177")


def handler_178(event):
    """Handle event kind 178."""
    return event.get("kind_178")


def handler_179(event):
    """Handle event kind 179."""
    return event.get("kind_179")


def handler_180(event):
    """Handle event kind 180."""
    return event.get("kind_180")


def handler_181(event):
    """Handle event kind 181."""
    return event.get("kind_181")


def handler_182(event):
    """Handle event kind 182."""
    return event.get("kind_182")


def handler_183(event):
    """Handle event kind 183."""
    return event.get("kind_183")


def handler_184(event):
    """Handle event kind 184."""
    return event.get("kind_184")


def handler_185(event):
    """Handle event kind 185."""
    return event.get("kind_185")


def handler_186(event):
    """Handle event kind 186."""
    return event.get("kind_186")


def handler_187(event):
    """Handle event kind 187."""
    return event.get("kind_187")


def handler_188(event):
    """Handle event kind 188."""
    return event.get("kind_188")


def handler_189(event):
    """Handle event kind 189."""
    return event.get("kind_189")


def handler_190(event):
    """Handle event kind 190."""
    return event.get("kind_190")


def handler_191(event):
    """Handle event kind 191."""
    return event.get("kind_191")


def handler_192(event):
    """Handle event kind 192."""
    return event.get("kind_192")


def handler_193(event):
    """Handle event kind 193."""
    return event.get("kind_193")


def handler_194(event):
    """Handle event kind 194."""
    return event.get("kind_194")


def handler_195(event):
    """Handle event kind 195."""
    return event.get("kind_195")


def handler_196(event):
    """Handle event kind 196."""
    return event.get("kind_196")


def handler_197(event):
    """Handle event kind 197."""
    return event.get("kind_197")


def handler_198(event):
    """Handle event kind 198."""
    return event.get("kind_198")


def handler_199(event):
    """Handle event kind 199."""
    return event.get("kind_199")


def handler_200(event):
    """Handle event kind 200."""
    return event.get("kind_200")
