v_add_f32 v1, v2, v999
