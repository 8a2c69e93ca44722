Dear reader, this is a letter, not a shader.
