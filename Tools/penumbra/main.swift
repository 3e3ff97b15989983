print("penumbra")
