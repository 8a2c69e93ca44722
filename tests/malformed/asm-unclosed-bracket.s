s_load_dwordx2 s[0:1, s[4:5], 0x0
