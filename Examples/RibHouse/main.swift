print("Rib House")
