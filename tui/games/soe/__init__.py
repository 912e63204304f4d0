"""Struggle of Empires on screen: its game screen, setup, forms, dialogs and board profiles."""
